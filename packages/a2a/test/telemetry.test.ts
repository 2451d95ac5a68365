import { type AgentEvent, cancelTask, getAgentCard, streamAgent, TaskFailedError } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerTelemetry, type Telemetry } from '../../client/test/support/otel.js';

const apiKey = 'a2a-telemetry-key-93d0';
const QUESTION = 'Where is order 1001?';
const orderStatus = seed.agents.orderStatus;

let otel: Telemetry;
let emu: Emulator;
let slow: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  otel = registerTelemetry();
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  // Steps far apart: a task stays running until it is cancelled.
  slow = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 30_000 });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
});
afterAll(async () => {
  otel.disable();
  await Promise.all([emu.close(), slow.close()]);
});
beforeEach(async () => {
  emu.clearRequests();
  emu.faults.clear();
  await otel.reset();
});

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

function runSpan(): ReadableSpan {
  const spans = otel.spans().filter((span) => span.name.startsWith('invoke_agent '));
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

describe('the invoke_agent span', () => {
  it('lives for the run under the caller’s span; task updates are its events in order; requests are its children', async () => {
    const events = await trace.getTracer('the-application').startActiveSpan('handle chat', async (parent) => {
      const run = streamAgent(dw, orderStatus.agentId, { text: QUESTION });
      const seen = await collect(run);
      parent.end();
      return seen;
    });
    const caller = otel.spans().find((span) => span.name === 'handle chat') as ReadableSpan;
    const span = runSpan();
    expect(span.name).toBe(`invoke_agent ${orderStatus.agentId}`);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    const last = events.at(-1);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'dataworkz',
      'gen_ai.agent.id': orderStatus.agentId,
      'gen_ai.conversation.id': last?.contextId,
      'dataworkz.task.id': last?.taskId,
      'dataworkz.task.state': 'completed',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const updates = events.flatMap((event) => (event.type === 'task-update' ? [event.data] : []));
    expect(updates.length).toBeGreaterThan(1);
    expect(
      span.events
        .filter((event) => event.name === 'task_update')
        .map((event) => [
          event.attributes?.['dataworkz.task_update.type'],
          event.attributes?.['dataworkz.task_update.name'],
        ]),
    ).toEqual(updates.map((update) => [update.type, update.name]));
    // The stream request is the run's child, and the emulator saw the run's trace on it.
    const http = otel
      .spans()
      .filter((other) => other.parentSpanContext?.spanId === span.spanContext().spanId);
    expect(http.map((child) => child.name)).toEqual(['streamAgent']);
    const traceparents = emu.requests.map((request) => request.headers.traceparent);
    expect(traceparents).toEqual([`00-${span.spanContext().traceId}-${http[0]?.spanContext().spanId}-01`]);
    const durations = await otel.histogram('gen_ai.client.operation.duration');
    expect(durations.map((point) => point.attributes['gen_ai.operation.name'])).toEqual(['invoke_agent']);
  });

  it('takes the agent’s name once its card has been read', async () => {
    await getAgentCard(dw, orderStatus.agentId);
    await streamAgent(dw, orderStatus.agentId, { text: QUESTION }).finalAnswer();
    expect(runSpan().name).toBe(`invoke_agent ${orderStatus.name}`);
    expect(runSpan().attributes['gen_ai.agent.name']).toBe(orderStatus.name);
  });

  it('a cut stream: the resume is an event and the run still ends well', async () => {
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 2, times: 1 });
    const events = await collect(streamAgent(dw, orderStatus.agentId, { text: QUESTION }));
    expect(events.some((event) => event.type === 'resumed')).toBe(true);
    const span = runSpan();
    const resumed = span.events.filter((event) => event.name === 'resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.attributes).toMatchObject({
      'dataworkz.resume.via': 'resubscribe',
      'dataworkz.resume.attempts': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // Every request of the run, the resubscription included, carried its trace.
    for (const request of emu.requests) {
      expect(request.headers.traceparent).toContain(span.spanContext().traceId);
    }
  });

  it('a cancelled task: ERROR with error.type', async () => {
    const slowClient = new Dataworkz({ baseUrl: slow.url, apiKey, maxRetries: 0 });
    const run = streamAgent(slowClient, orderStatus.agentId, { text: QUESTION });
    for await (const event of run) {
      if (event.type === 'task' && event.taskId)
        await cancelTask(slowClient, orderStatus.agentId, event.taskId);
    }
    await expect(run.finalAnswer()).rejects.toBeInstanceOf(TaskFailedError);
    const span = runSpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TaskFailedError' });
    expect(span.attributes).toMatchObject({
      'error.type': 'TaskFailedError',
      'dataworkz.task.state': 'canceled',
    });
  });
});

describe('content', () => {
  it('no key and no message text unless capture is on; with it, the question and the answer', async () => {
    const answer = await streamAgent(dw, orderStatus.agentId, { text: QUESTION }).finalAnswer();
    const text = JSON.stringify(
      otel.spans().map((span) => [span.name, span.attributes, span.events, span.status]),
    );
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(QUESTION);
    expect(text).not.toContain(answer.answer);

    await otel.reset();
    const capturing = new Dataworkz({ baseUrl: emu.url, apiKey, captureContent: true });
    const captured = await streamAgent(capturing, orderStatus.agentId, { text: QUESTION }).finalAnswer();
    const span = runSpan();
    expect(JSON.parse(String(span.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: QUESTION }] },
    ]);
    expect(JSON.parse(String(span.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: captured.answer }] },
    ]);
  });
});
