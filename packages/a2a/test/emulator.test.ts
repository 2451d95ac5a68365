import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import {
  type AgentEvent,
  getAgentCard,
  NoLlmError,
  type StreamAgentOptions,
  streamAgent,
} from '@dataworkz/a2a';
import {
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Dataworkz,
  InternalServerError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamsClosed } from './support/emulator-streams.js';
import { clientSpeaking } from './support/speaking.js';

const apiKey = 'emulator-e2e-key';
const orderStatus = seed.agents.orderStatus.agentId;
const policyHelper = seed.agents.policyHelper.agentId;

let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
});
afterAll(() => emu.close());

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

// What matters of a run (events, the answer, task updates, context values, aborts, errors), against
// the emulator speaking each A2A version; under v1.0 the client moves to it from the agent card.
describe.each(['0.3', '1.0'] as const)('over A2A %s', (version) => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], a2aVersion: version });
    dw = await clientSpeaking(version, emu.url, apiKey);
  });
  afterAll(() => emu.close());

  describe('streamAgent against the emulator', () => {
    it('streams the task updates in order, then the final answer', async () => {
      const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
      const events = await collect(run);
      expect(events[0]).toMatchObject({ type: 'task', state: 'submitted' });
      const updates = events.filter((event) => event.type === 'task-update');
      expect(updates.length).toBeGreaterThan(0);
      expect(
        updates.every((update) => update.state === 'working' && typeof update.data.type === 'string'),
      ).toBe(true);
      // Updates follow the agent's steps: a scenario first, composing last.
      expect(updates[0]?.data.type).toBe('SCENARIO_SELECTED');
      expect(updates.at(-1)?.data.type).toBe('COMPOSING');
      const last = events.at(-1);
      expect(last).toMatchObject({ type: 'status', state: 'completed', final: true });
      expect(events.filter((event) => event.final)).toHaveLength(1);

      const final = await run.finalAnswer();
      expect(final.answer).toMatch(/1001/);
      expect(final.message?.metadata?.llmId).toBe(seed.llms.orderStatusAgent);
      expect(final.taskId).toBe(events[0]?.taskId);
    });

    it('selects the LLM given as llmId', async () => {
      const final = await streamAgent(dw, orderStatus, {
        text: 'Where is order 1001?',
        llmId: seed.llms.accountAlternate,
      }).finalAnswer();
      expect(final.message?.metadata?.llmId).toBe(seed.llms.accountAlternate);
      const request = emu.requests.filter((recorded) => recorded.path.endsWith('/stream')).at(-1);
      expect(new URLSearchParams(request?.query).get('llmId')).toBe(seed.llms.accountAlternate);
    });

    it('delivers context values: the answer is personalised with userName', async () => {
      const plain = await streamAgent(dw, orderStatus, { text: 'Where is order 1001?' }).finalAnswer();
      const personal = await streamAgent(dw, orderStatus, {
        text: 'Where is order 1001?',
        contextValues: { userName: 'Grace' },
      }).finalAnswer();
      expect(plain.answer).not.toMatch(/^Hi /);
      expect(personal.answer).toBe(`Hi Grace! ${plain.answer}`);
      const request = emu.requests.filter((recorded) => recorded.path.endsWith('/stream')).at(-1);
      expect(request?.headers[version === '1.0' ? 'a2a-extensions' : 'x-a2a-extensions']).toBe(
        emu.extensionUri,
      );
    });

    it('continues the conversation with the contextId of the previous turn', async () => {
      const first = await streamAgent(dw, orderStatus, { text: 'Where is my order?' }).finalAnswer();
      const next = await streamAgent(dw, orderStatus, {
        text: '1003',
        contextId: first.contextId,
        ...(first.state === 'input-required' ? { taskId: first.taskId } : {}),
      }).finalAnswer();
      expect(next.contextId).toBe(first.contextId);
      expect(next.state).toBe('completed');
      expect(next.answer).toMatch(/1003/);
    });

    it('refuses an unknown option key at once, naming it: a whole result spread in is not sent', async () => {
      const first = await streamAgent(dw, orderStatus, { text: 'Where is order 1001?' }).finalAnswer();
      // What plain JavaScript (or a cast) lets through: the earlier turn's result spread into the options.
      const options = { ...first, text: 'And order 1002?' } as StreamAgentOptions;
      let error: unknown;
      try {
        streamAgent(dw, orderStatus, options);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(InvalidParameterError);
      const unknown = Object.keys(first).find((key) => !['contextId', 'taskId'].includes(key));
      expect((error as InvalidParameterError).parameter).toBe(unknown);
      expect((error as Error).message).toMatch(
        new RegExp(`^streamAgent has no option "${unknown}"; its options are text, parts, llmId, `),
      );
    });

    it('closes the connection when the loop breaks, or the run is aborted, while the agent is still working', async () => {
      // Steps 30 s apart: the stream can only close this soon because the client closed it.
      const slow = await startEmulator({
        port: 0,
        apiKeys: [apiKey],
        agentStepDelayMs: 30_000,
        a2aVersion: version,
      });
      try {
        const client = await clientSpeaking(version, slow.url, apiKey);
        const run = streamAgent(client, orderStatus, { text: 'Where is order 1001?' });
        for await (const event of run) {
          if (event.type === 'task') {
            expect(slow.openStreams).toBe(1);
            break;
          }
        }
        await expect(run.finalAnswer()).rejects.toBeInstanceOf(APIUserAbortError);
        await streamsClosed(slow);

        const aborted = streamAgent(client, orderStatus, { text: 'Where is order 1001?' });
        const loop = (async () => {
          for await (const _event of aborted) aborted.abort();
        })();
        await expect(loop).rejects.toBeInstanceOf(APIUserAbortError);
        await streamsClosed(slow);

        const controller = new AbortController();
        const signalled = streamAgent(client, orderStatus, {
          text: 'Where is order 1001?',
          signal: controller.signal,
        });
        const iterator = signalled[Symbol.asyncIterator]();
        await iterator.next();
        controller.abort();
        await expect(iterator.next()).rejects.toBeInstanceOf(APIUserAbortError);
        await streamsClosed(slow);
        expect(slow.openStreams).toBe(0);
      } finally {
        await slow.close();
      }
    });

    it('rejects a run aborted while the response is delayed', async () => {
      emu.faults.add({ route: 'streamAgent', latencyMs: 60_000 });
      const controller = new AbortController();
      const run = streamAgent(dw, orderStatus, { text: 'Hi', signal: controller.signal });
      const answer = run.finalAnswer();
      await until(
        () =>
          emu.requests.some(
            (recorded) => recorded.path.endsWith('/stream') && recorded.body.includes('"Hi"'),
          ),
        'the stream request reached the emulator',
      );
      controller.abort();
      await expect(answer).rejects.toBeInstanceOf(APIUserAbortError);
      emu.faults.clear();
    });
  });

  describe('errors from the emulator', () => {
    it('fails with NoLlmError when no LLM can be determined, and runs once llmId is given', async () => {
      const bare = await startEmulator({
        port: 0,
        apiKeys: [apiKey],
        noDefaultLlm: true,
        a2aVersion: version,
      });
      try {
        const client = await clientSpeaking(version, bare.url, apiKey);
        const error = await streamAgent(client, policyHelper, { text: 'How long does shipping take?' })
          .finalAnswer()
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(NoLlmError);
        expect((error as NoLlmError).cause).toBeInstanceOf(BadRequestError);
        const ok = await streamAgent(client, policyHelper, {
          text: 'How long does shipping take?',
          llmId: seed.llms.accountAlternate,
        }).finalAnswer();
        expect(ok.state).toBe('completed');
      } finally {
        await bare.close();
      }
    });

    it('an LLM the agent does not have is a BadRequestError, not a NoLlmError', async () => {
      const error = await streamAgent(dw, orderStatus, { text: 'Hi', llmId: 'no-such-llm' })
        .finalAnswer()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).not.toBeInstanceOf(NoLlmError);
    });

    it('maps 401, 404, 429 and 5xx to the client error classes', async () => {
      const wrong = new Dataworkz({ baseUrl: emu.url, apiKey: 'wrong-key', maxRetries: 0 });
      await expect(streamAgent(wrong, orderStatus, { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
        AuthenticationError,
      );
      await expect(streamAgent(dw, 'no-such-agent', { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
        NotFoundError,
      );
      emu.faults.add({ route: 'streamAgent', status: 429, headers: { 'retry-after': '1' } });
      await expect(streamAgent(dw, orderStatus, { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
        RateLimitError,
      );
      emu.faults.add({ route: 'streamAgent', status: 503 });
      await expect(streamAgent(dw, orderStatus, { text: 'Hi' }).finalAnswer()).rejects.toBeInstanceOf(
        InternalServerError,
      );
    });

    it('a stream dropped mid-body is an APIConnectionError or an incomplete stream, never a silent end', async () => {
      emu.faults.add({ route: 'streamAgent', drop: 'during-body' });
      const error = await streamAgent(dw, orderStatus, { text: 'Where is order 1001?' })
        .finalAnswer()
        .catch((caught: unknown) => caught);
      expect((error as Error).name).toMatch(/^(APIConnectionError|IncompleteStreamError)$/);
    });
  });
});

describe('agent cards from the emulator', () => {
  it('reads the card and its provided-values extension', async () => {
    const card = await getAgentCard(dw, orderStatus);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.capabilities?.extensions?.map((extension) => extension.uri)).toContain(emu.extensionUri);
  });

  it('falls back to agent.json when agent-card.json answers 404', async () => {
    emu.faults.add({
      route: 'getAgentCard',
      status: 404,
      body: '{"status":404,"message":"Not here"}',
      contentType: 'application/json',
    });
    const card = await getAgentCard(dw, orderStatus);
    expect(card.name).toBe(seed.agents.orderStatus.name);
    const paths = emu.requests.slice(-2).map((recorded) => recorded.path);
    expect(paths[0]).toMatch(/agent-card\.json$/);
    expect(paths[1]).toMatch(/agent\.json$/);
  });
});

describe('the raw @a2a-js/sdk client against the emulator', () => {
  it('streams SVC_STATUS_UPDATE task updates and the final answer', async () => {
    const transport = new JsonRpcTransport({
      endpoint: `${emu.url}/api/agents/v1/a2a/${orderStatus}/stream`,
      fetchImpl: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), authorization: `SSWS ${apiKey}` },
        }),
    });
    const events: Array<Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent> = [];
    const message: Message = {
      kind: 'message',
      role: 'user',
      messageId: crypto.randomUUID(),
      parts: [{ kind: 'text', text: 'Where is order 1001?' }],
    };
    for await (const event of transport.sendMessageStream({ message })) events.push(event);
    const updates = events.filter(
      (event) =>
        event.kind === 'status-update' &&
        event.status.message?.parts.some(
          (part) => part.kind === 'data' && part.metadata?.type === 'SVC_STATUS_UPDATE',
        ),
    );
    expect(updates.length).toBeGreaterThan(0);
    const final = events.at(-1) as TaskStatusUpdateEvent;
    expect(final).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(final.status.message?.parts[0]).toMatchObject({ kind: 'text' });
  });
});
