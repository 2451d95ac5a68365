import Dataworkz, { InternalServerError } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerTelemetry, type Telemetry } from './support/otel.js';

const QUESTION = 'What is the returns window for unopened items?';
const KEY = 'telemetry-test-key-5f1c';

let emu: Emulator;
let dw: Dataworkz;
let otel: Telemetry;
const system = seed.systems.supportKb.systemId;
const llm = seed.llms.supportKbSystem;

beforeAll(async () => {
  otel = registerTelemetry();
  emu = await startEmulator({ port: 0, host: '127.0.0.1', apiKeys: [KEY] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: KEY, backoff: { initialDelayMs: 1, maxDelayMs: 4 } });
});
afterAll(async () => {
  otel.disable();
  await emu.close();
});
beforeEach(async () => {
  emu.clearRequests();
  emu.faults.clear();
  await otel.reset();
});

function only(name: string): ReadableSpan {
  const found = otel.spans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

/** Everything the telemetry holds, as text: what a backend would receive. */
async function everything(): Promise<string> {
  const spans = otel.spans().map((span) => ({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
  }));
  const points = [
    ...(await otel.histogram('http.client.request.duration')),
    ...(await otel.histogram('gen_ai.client.operation.duration')),
  ].map((point) => point.attributes);
  return JSON.stringify({ spans, points });
}

describe('spans', () => {
  it('a search is a retrieval span under the caller’s span, and its request carries that trace', async () => {
    const tracer = trace.getTracer('the-application');
    await tracer.startActiveSpan('handle request', async (parent) => {
      await dw.qna.search(system, { query: QUESTION, llmProviderId: llm });
      parent.end();
    });
    const caller = only('handle request');
    const span = only(`retrieval ${system}`);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(caller.spanContext().traceId);
    const port = Number(new URL(emu.url).port);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': '/api/qna/v1/systems/{systemId}/search',
      'dataworkz.operation': 'qna.search',
      'gen_ai.operation.name': 'retrieval',
      'gen_ai.provider.name': 'dataworkz',
      'gen_ai.data_source.id': system,
      'dataworkz.llm_provider.id': llm,
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const { traceId, spanId } = span.spanContext();
    expect(emu.requests.map((request) => request.headers.traceparent)).toEqual([
      `00-${traceId}-${spanId}-01`,
    ]);
  });

  it('one span per operation, each request carrying traceparent', async () => {
    const agentId = seed.agents.orderStatus.agentId;
    await dw.qna.list();
    await dw.qna.get(system);
    await dw.qna.llmProviders(system);
    await dw.qna.filters(system);
    await dw.qna.answer(system, { questionText: QUESTION, llmProviderId: llm });
    const [first] = (await dw.qna.search(system, { query: 'returns', llmProviderId: llm })).searchResultsList;
    if (!first) throw new Error('the search found nothing');
    await (await dw.qna.document(system, first)).arrayBuffer();
    await dw.agents.list();
    await dw.agents.llmProviders();
    await dw.agents.card(agentId);
    await dw.agents.respond(agentId, {
      userText: 'Where is order 1001?',
      llmProviderId: seed.llms.orderStatusAgent,
    });
    expect(otel.spans().map((span) => span.name)).toEqual([
      'qna.list',
      'qna.get',
      'qna.llmProviders',
      'qna.filters',
      'qna.answer',
      `retrieval ${system}`,
      'qna.document',
      'agents.list',
      'agents.llmProviders',
      'agents.card',
      'agents.respond',
    ]);
    expect(only('qna.answer').attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.data_source.id': system,
      'url.template': '/api/qna/v1/systems/{systemId}/answer',
    });
    expect(only('agents.respond').attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': agentId,
      'http.request.method': 'POST',
    });
    for (const request of emu.requests)
      expect(request.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(emu.requests.length).toBe(otel.spans().length);
  });

  it('a call retried then failed: ERROR with error.type, one event per retry, one duration per attempt', async () => {
    emu.faults.add({ route: 'listQnaSystems', status: 503, times: 3 });
    await expect(dw.qna.list()).rejects.toBeInstanceOf(InternalServerError);
    const span = only('qna.list');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'InternalServerError' });
    expect(span.attributes['error.type']).toBe('503');
    expect(span.attributes['http.response.status_code']).toBe(503);
    expect(span.attributes['http.request.resend_count']).toBe(2);
    expect(span.events.map((event) => [event.name, event.attributes?.['dataworkz.retry.reason']])).toEqual([
      ['retry', 'status 503'],
      ['retry', 'status 503'],
    ]);
    expect(
      span.events.every((event) => typeof event.attributes?.['dataworkz.retry.delay_ms'] === 'number'),
    ).toBe(true);
    const attempts = await otel.histogram('http.client.request.duration');
    expect(attempts.map((point) => [point.attributes['error.type'], point.value.count])).toEqual([
      ['503', 3],
    ]);
    expect(attempts[0]?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/api/qna/v1/systems',
      'http.response.status_code': 503,
    });
  });

  it('a failed connection: ERROR with the error’s type', async () => {
    const offline = new Dataworkz({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, maxRetries: 0 });
    await expect(offline.qna.list()).rejects.toThrow();
    const span = only('qna.list');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('APIConnectionError');
  });
});

describe('metrics', () => {
  it('gen_ai.client.operation.duration for GenAI operations, http.client.request.duration for every request', async () => {
    await dw.qna.search(system, { query: QUESTION });
    await dw.qna.list();
    const operations = await otel.histogram('gen_ai.client.operation.duration');
    expect(operations.map((point) => point.attributes)).toEqual([
      {
        'gen_ai.operation.name': 'retrieval',
        'gen_ai.provider.name': 'dataworkz',
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(emu.url).port),
      },
    ]);
    const requests = await otel.histogram('http.client.request.duration');
    expect(requests.map((point) => point.attributes['url.template']).sort()).toEqual([
      '/api/qna/v1/systems',
      '/api/qna/v1/systems/{systemId}/search',
    ]);
    // Low cardinality: no system, question or request ids on metrics.
    expect(JSON.stringify(requests.map((point) => point.attributes))).not.toContain(system);
  });
});

describe('content and secrets', () => {
  it('no key, Authorization value or question text unless capture is on', async () => {
    await dw.qna.answer(system, { questionText: QUESTION, llmProviderId: llm });
    emu.faults.add({
      route: 'answerQnaQuestion',
      status: 500,
      body: JSON.stringify({ message: `failed: ${QUESTION}` }),
      times: 3,
    });
    await expect(dw.qna.answer(system, { questionText: QUESTION, llmProviderId: llm })).rejects.toThrow();
    const text = await everything();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('SSWS');
    expect(text).not.toContain(QUESTION);
    expect(text).not.toContain('returns window');
  });

  it('with captureContent, the question and the answer are recorded as GenAI messages', async () => {
    const capturing = new Dataworkz({ baseUrl: emu.url, apiKey: KEY, captureContent: true });
    const answer = await capturing.qna.answer(system, { questionText: QUESTION, llmProviderId: llm });
    const span = only('qna.answer');
    expect(JSON.parse(String(span.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: QUESTION }] },
    ]);
    expect(JSON.parse(String(span.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: answer.answer }] },
    ]);
    expect(await everything()).not.toContain(KEY);
  });

  it('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true turns capture on; the option wins', () => {
    const env = process.env;
    process.env = { ...env, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' };
    try {
      expect(new Dataworkz({ baseUrl: emu.url, apiKey: KEY }).captureContent).toBe(true);
      expect(new Dataworkz({ baseUrl: emu.url, apiKey: KEY, captureContent: false }).captureContent).toBe(
        false,
      );
    } finally {
      process.env = env;
    }
    expect(new Dataworkz({ baseUrl: emu.url, apiKey: KEY }).captureContent).toBe(false);
  });
});

describe('without a provider', () => {
  it('calls work, nothing is recorded and no traceparent is sent', async () => {
    otel.disable();
    try {
      await dw.qna.search(system, { query: QUESTION });
      expect(otel.spans()).toEqual([]);
      expect(emu.requests.at(-1)?.headers.traceparent).toBeUndefined();
    } finally {
      otel = registerTelemetry();
    }
  });
});
