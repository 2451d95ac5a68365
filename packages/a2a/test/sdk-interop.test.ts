import {
  type AgentEvent,
  getAgentCard,
  NoLlmError,
  SVC_STATUS_UPDATE,
  streamAgent,
  TaskFailedError,
  type TaskUpdate,
} from '@dataworkz/a2a';
import {
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Dataworkz,
  NotFoundError,
  type WithUnknownFields,
} from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_ID,
  LEGACY_AGENT_ID,
  NO_LLM_AGENT_ID,
  type SdkServer,
  startSdkServer,
} from './support/sdk-server.js';

const apiKey = 'sdk-interop-key';

function summarise(events: AgentEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'task-update':
        // This test agent's updates carry a `step` field of their own, outside TaskUpdate.
        return `task-update:${String((event.data as WithUnknownFields<TaskUpdate>).step)}`;
      case 'status':
        return `status:${event.state}${event.final ? ':final' : ''}`;
      case 'task':
        return `task:${event.state}`;
      case 'artifact':
        return `artifact:${event.text}`;
      default:
        return event.type;
    }
  });
}

const EXPECTED = [
  'task:submitted',
  'task-update:Planning',
  'task-update:Looking up orders',
  'artifact:Order 1001: ',
  'artifact:shipped',
  'status:completed:final',
];

describe.each([
  ['single-line events', {}],
  ['multi-line events in 7-byte slices', { multiLineData: true, sliceBytes: 7 }],
])('against an agent on the @a2a-js/sdk server (%s)', (_name, layout) => {
  let server: SdkServer;
  let dw: Dataworkz;

  beforeAll(async () => {
    server = await startSdkServer({ apiKey, ...layout });
    dw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('streams task updates, artifacts and the final answer in order', async () => {
    const run = streamAgent(dw, AGENT_ID, {
      text: 'Where is order 1001?',
      llmId: 'llm-7',
      properties: { include_probe: false },
    });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(summarise(events)).toEqual(EXPECTED);

    const updates = events.filter((event) => event.type === 'task-update');
    expect(updates[0]?.metadata.type).toBe(SVC_STATUS_UPDATE);
    expect(updates[0]?.state).toBe('working');
    expect(updates[0]?.raw.kind).toBe('status-update');

    const final = await run.finalAnswer();
    expect(final.state).toBe('completed');
    expect(final.answer).toBe('Hello there. You said "Where is order 1001?" (llm llm-7, turn 1).');
    expect(final.taskId).toBe(run.taskId);
    expect(final.contextId).toBe(run.contextId);
    expect(final.artifacts).toEqual([
      {
        artifactId: 'summary',
        // The appended text chunks, merged into one part.
        parts: [{ kind: 'text', text: 'Order 1001: shipped' }],
      },
    ]);

    const request = server.requests.at(-1);
    expect(request?.path).toBe(`/api/agents/v1/a2a/${AGENT_ID}/stream`);
    expect(request?.query.get('llmId')).toBe('llm-7');
    expect(request?.query.get('properties')).toBe('include_probe=false');
    expect(request?.headers.accept).toBe('text/event-stream');
    expect(request?.headers['x-a2a-extensions']).toBeUndefined();
    expect(request?.body).toMatchObject({
      jsonrpc: '2.0',
      method: 'message/stream',
      params: {
        message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'Where is order 1001?' }] },
      },
    });
  });

  it('finalAnswer() alone consumes the stream', async () => {
    const { answer, state } = await streamAgent(dw, AGENT_ID, { text: 'Hi' }).finalAnswer();
    expect(state).toBe('completed');
    expect(answer).toContain('You said "Hi" (llm agent-default-llm');
  });

  it('sends context values through the extension the card advertises, which personalises the answer', async () => {
    const first = await streamAgent(dw, AGENT_ID, {
      text: 'Hi',
      contextValues: { userName: 'Ada', tier: 2 },
    }).finalAnswer();
    expect(first.answer).toMatch(/^Hello Ada\./);
    const request = server.requests.at(-1);
    expect(request?.headers['x-a2a-extensions']).toBe(server.extensionUri);
    expect(request?.body).toMatchObject({
      params: {
        message: {
          parts: [
            { kind: 'text' },
            { kind: 'data', data: { userName: 'Ada', tier: 2 }, metadata: { [server.extensionUri]: true } },
          ],
        },
      },
    });
  });

  it('continues a conversation with the contextId, and a task with its taskId', async () => {
    const first = await streamAgent(dw, AGENT_ID, { text: 'First' }).finalAnswer();
    const second = await streamAgent(dw, AGENT_ID, {
      text: 'Second',
      contextId: first.contextId,
    }).finalAnswer();
    expect(second.contextId).toBe(first.contextId);
    expect(second.answer).toContain('turn 2');

    const question = await streamAgent(dw, AGENT_ID, { text: 'ask me' }).finalAnswer();
    expect(question).toMatchObject({ state: 'input-required', answer: 'Which order?' });
    const reply = await streamAgent(dw, AGENT_ID, {
      text: '1001',
      contextId: question.contextId,
      taskId: question.taskId,
    }).finalAnswer();
    expect(reply.taskId).toBe(question.taskId);
    expect(reply.answer).toContain(`continuing task ${question.taskId}`);
  });

  it('yields a failed task to the loop and rejects finalAnswer() with TaskFailedError', async () => {
    const run = streamAgent(dw, AGENT_ID, { text: 'please fail' });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'status', state: 'failed', final: true });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({
      state: 'failed',
      answer: 'The orders system is unreachable.',
      taskId: run.taskId,
    });
  });

  it('reports that no LLM could be determined', async () => {
    const error = await streamAgent(dw, NO_LLM_AGENT_ID, { text: 'Hi' })
      .finalAnswer()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoLlmError);
    expect((error as NoLlmError).cause).toBeInstanceOf(BadRequestError);
    const withLlm = await streamAgent(dw, NO_LLM_AGENT_ID, { text: 'Hi', llmId: 'llm-1' }).finalAnswer();
    expect(withLlm.answer).toContain('llm llm-1');
  });

  it('maps HTTP errors to the client error classes', async () => {
    await expect(streamAgent(dw, 'no-such-agent', { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const wrongKey = new Dataworkz({ baseUrl: server.url, apiKey: 'wrong', maxRetries: 0 });
    await expect(streamAgent(wrongKey, AGENT_ID, { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('closes the connection when the loop breaks', async () => {
    const run = streamAgent(dw, AGENT_ID, { text: 'wait for me' });
    for await (const event of run) {
      if (event.type === 'task-update') break;
    }
    await server.streamsClosed();
    expect(server.openStreams).toBe(0);
    await expect(run.finalAnswer()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('closes the connection on abort() and on the caller signal, rejecting with APIUserAbortError', async () => {
    const run = streamAgent(dw, AGENT_ID, { text: 'wait for me' });
    const seen: string[] = [];
    const loop = (async () => {
      for await (const event of run) {
        seen.push(event.type);
        if (event.type === 'task-update') run.abort();
      }
    })();
    await expect(loop).rejects.toBeInstanceOf(APIUserAbortError);
    await server.streamsClosed();
    expect(seen).toEqual(['task', 'task-update']);

    const controller = new AbortController();
    const signalled = streamAgent(dw, AGENT_ID, { text: 'wait for me', signal: controller.signal });
    const iterator = signalled[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'task' });
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(APIUserAbortError);
    await server.streamsClosed();
    expect(server.openStreams).toBe(0);
  });

  it('offers the events as a web ReadableStream whose cancel closes the connection', async () => {
    const events: AgentEvent[] = [];
    const reader = streamAgent(dw, AGENT_ID, { text: 'Hi' }).toReadableStream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value);
    expect(summarise(events)).toEqual(EXPECTED);

    const waiting = streamAgent(dw, AGENT_ID, { text: 'wait for me' }).toReadableStream().getReader();
    await waiting.read();
    await waiting.cancel();
    await server.streamsClosed();
    expect(server.openStreams).toBe(0);
  });
});

describe('getAgentCard', () => {
  let server: SdkServer;
  let dw: Dataworkz;

  beforeAll(async () => {
    server = await startSdkServer({ apiKey });
    dw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('reads agent-card.json, and agent.json where the deployment has only that', async () => {
    const card = await getAgentCard(dw, AGENT_ID);
    expect(card.capabilities?.streaming).toBe(true);
    const legacy = await getAgentCard(dw, LEGACY_AGENT_ID);
    expect(legacy.url).toContain(`/a2a/${LEGACY_AGENT_ID}/stream`);
    await expect(getAgentCard(dw, 'missing')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('discovers the extension of a legacy-only agent too', async () => {
    const { answer } = await streamAgent(dw, LEGACY_AGENT_ID, {
      text: 'Hi',
      contextValues: { userName: 'Bo' },
    }).finalAnswer();
    expect(answer).toMatch(/^Hello Bo\./);
  });
});
