// The emulator under A2A v1.0, read with the official SDK's own v1.0 client (@a2a-js/sdk 1.3.0, which
// sends `A2A-Version: 1.0`): the same agents, task updates and provided-values extension as under v0.3.
// `a2aVersion: '1.0'` makes the v1.0 card the one served to a card request naming no version.

import {
  AgentCard,
  GetTaskRequest,
  Message,
  type Part,
  SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk-v1';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk-v1/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const apiKey = 'v1-key';
const orderStatus = seed.agents.orderStatus.agentId;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: [apiKey], a2aVersion: '1.0', answerArtifactChunkChars: 16 });
});
afterAll(() => emu.close());

/** The official v1 client for an agent, from its card; every request carries the key (and extensions). */
async function clientFor(agentId: string, extensions?: string): Promise<{ client: Client; card: AgentCard }> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `SSWS ${apiKey}`);
    if (extensions) headers.set('a2a-extensions', extensions);
    return fetch(input, { ...init, headers });
  };
  const response = await fetchImpl(`${emu.url}/api/agents/v1/a2a/${agentId}/.well-known/agent-card.json`);
  const card = AgentCard.fromJSON(await response.json());
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  return { client: await factory.createFromAgentCard(card), card };
}

function message(text: string, more: object = {}): Message {
  return Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...more });
}

async function streamAll(client: Client, sent: Message): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of client.sendMessageStream(
    SendMessageRequest.fromJSON({ message: Message.toJSON(sent) }),
  ))
    events.push(event);
  return events;
}

const textOf = (parts: readonly Part[] | undefined) =>
  (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');

describe('the emulator over A2A v1.0, read with the official @a2a-js/sdk 1.3.0 client', () => {
  it('serves a v1.0 card: the JSON-RPC interface in supportedInterfaces, the extension in its capabilities', async () => {
    const { card } = await clientFor(orderStatus);
    // Both versions at the one URL, v1.0 (the preferred) first: the request's A2A-Version chooses.
    expect(card.supportedInterfaces).toEqual(
      ['1.0', '0.3'].map((protocolVersion) =>
        expect.objectContaining({
          protocolBinding: 'JSONRPC',
          protocolVersion,
          url: expect.stringMatching(new RegExp(`/a2a/${orderStatus}/stream$`)),
        }),
      ),
    );
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.capabilities?.extensions.map((extension) => extension.uri)).toContain(emu.extensionUri);
  });

  it('streams the task, one SVC_STATUS_UPDATE per step, the answer in chunks, then the completed status', async () => {
    const { client } = await clientFor(orderStatus);
    const events = await streamAll(client, message('Where is order 1001?'));
    const cases = events.map((event) => event.payload?.$case);
    expect(cases[0]).toBe('task');
    const steps = events.flatMap((event) =>
      event.payload?.$case === 'statusUpdate'
        ? (event.payload.value.status?.message?.parts ?? []).flatMap((part) =>
            part.content?.$case === 'data' && part.metadata?.type === 'SVC_STATUS_UPDATE'
              ? [part.content.value]
              : [],
          )
        : [],
    );
    expect(steps.map((step) => (step as { type: string }).type)).toEqual([
      'SCENARIO_SELECTED',
      'TOOL_CALL',
      'TOOL_CALL',
      'COMPOSING',
    ]);
    const chunks = events.flatMap((event) =>
      event.payload?.$case === 'artifactUpdate' ? [event.payload.value] : [],
    );
    const last = events.at(-1);
    if (last?.payload?.$case !== 'statusUpdate')
      throw new Error('the stream did not end with a status update');
    expect(last.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = textOf(last.payload.value.status?.message?.parts);
    expect(answer).toBe(
      'Order 1001 for Ada Lovelace shipped on 2026-03-02 with DHL and is expected on 2026-03-05.',
    );
    expect(chunks.map((chunk) => textOf(chunk.artifact?.parts)).join('')).toBe(answer);

    const task: Task = await client.getTask(GetTaskRequest.fromJSON({ id: last.payload.value.taskId }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task.artifacts[0]?.parts)).toBe(answer);
  });

  it('reads provided values under the A2A-Extensions header and answers with them', async () => {
    const uri = emu.extensionUri;
    const { client } = await clientFor(orderStatus, uri);
    const sent = message('Where is order 1001?', {
      parts: [{ text: 'Where is order 1001?' }, { data: { userName: 'Grace' }, metadata: { [uri]: true } }],
      extensions: [uri],
    });
    const events = await streamAll(client, sent);
    const last = events.at(-1);
    if (last?.payload?.$case !== 'statusUpdate')
      throw new Error('the stream did not end with a status update');
    expect(textOf(last.payload.value.status?.message?.parts)).toMatch(/^Hi Grace!/);
  });

  it('asks back with input-required, and a reply on the same task continues it', async () => {
    const { client } = await clientFor(orderStatus);
    const first = await streamAll(client, message('Where is my order?'));
    const asked = first.at(-1);
    if (asked?.payload?.$case !== 'statusUpdate') throw new Error('no status update');
    expect(asked.payload.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { taskId, contextId } = asked.payload.value;
    const second = await streamAll(client, message('Order 1001', { taskId, contextId }));
    expect(second[0]?.payload?.$case).toBe('task');
    const done = second.at(-1);
    if (done?.payload?.$case !== 'statusUpdate') throw new Error('no status update');
    expect(done.payload.value.taskId).toBe(taskId);
    expect(done.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done.payload.value.status?.message?.parts)).toMatch(/1001/);
  });

  it('answers a v0.3 method under A2A-Version 1.0 as an unknown method, and refuses a bad key with 401', async () => {
    const response = await fetch(`${emu.url}/api/agents/v1/a2a/${orderStatus}/stream`, {
      method: 'POST',
      headers: {
        authorization: `SSWS ${apiKey}`,
        'content-type': 'application/json',
        'a2a-version': '1.0',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'message/stream', params: { message: {} } }),
    });
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32601 } });
    const refused = await fetch(`${emu.url}/api/agents/v1/a2a/${orderStatus}/stream`, {
      method: 'POST',
      headers: { authorization: 'SSWS wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
  });
});
