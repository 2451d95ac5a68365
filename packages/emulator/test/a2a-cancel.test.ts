// CancelTask in every state a task of the emulator's agents can be cancelled in (submitted, working,
// input-required), over v0.3 and v1.0 from one emulator, through the official SDK's clients: 0.3.14's
// JsonRpcTransport (no A2A-Version header) and 1.3.0's v1 client (A2A-Version: 1.0). The answer is the
// task in `canceled`, with its context; a later read says the same. (No agent of the emulator, nor the
// service, ever asks for authentication in a task, so `auth-required` has no run to cancel.)

import {
  CancelTaskRequest,
  GetTaskRequest,
  Message,
  SendMessageRequest,
  type StreamResponse,
  TaskState,
} from '@a2a-js/sdk-v1';
import { type EmbedFunction, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StreamEvent, transportFor, userMessage } from './support/a2a.js';
import { v1ClientFor, v1Message } from './support/a2a-v1.js';

const orderStatus = seed.agents.orderStatus.agentId;
const productAdvisor = seed.agents.productAdvisor.agentId;
// A question the Product Advisor answers from the manuals: its search waits at the embedding below.
const heldQuestion = 'How do I reset my password? (held)';

/** An embedding that holds every search for the held question until released: the run stays `working`. */
function heldEmbedding() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const embed: EmbedFunction = async (texts) => {
    if (texts.some((text) => text.includes('(held)'))) await released;
    return texts.map((text) => [1, (text.length % 7) + 1, 2]);
  };
  return { embed, release };
}

type Reader = AsyncGenerator<StreamEvent, void, undefined>;
type V1Reader = AsyncGenerator<StreamResponse, void, undefined>;

/** Reads a stream until an event satisfies `until`; the rest stays to be read. */
async function readUntil<T>(
  events: AsyncGenerator<T, void, undefined>,
  until: (event: T) => boolean,
): Promise<T> {
  for (let next = await events.next(); !next.done; next = await events.next()) {
    if (until(next.value)) return next.value;
  }
  throw new Error('the stream ended first');
}

async function drain<T>(events: AsyncGenerator<T, void, undefined>): Promise<T[]> {
  const rest: T[] = [];
  for await (const event of events) rest.push(event);
  return rest;
}

const stateOf = (event: StreamEvent) =>
  event.kind === 'task' || event.kind === 'status-update' ? event.status.state : undefined;

const v1StateOf = (event: StreamResponse) =>
  event.payload?.$case === 'task' || event.payload?.$case === 'statusUpdate'
    ? event.payload.value.status?.state
    : undefined;

/** Cancels over v0.3 and checks the answer, a later read, and the stream's own end. */
async function cancelV03(emu: Emulator, agentId: string, taskId: string, contextId: string) {
  const transport = transportFor(emu, agentId);
  const cancelled = await transport.cancelTask({ id: taskId });
  expect(cancelled).toMatchObject({ kind: 'task', id: taskId, contextId, status: { state: 'canceled' } });
  expect((await transport.getTask({ id: taskId })).status.state).toBe('canceled');
}

async function cancelV1(emu: Emulator, agentId: string, taskId: string, contextId: string) {
  const { client } = await v1ClientFor(emu, agentId);
  const cancelled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }));
  expect(cancelled.id).toBe(taskId);
  expect(cancelled.contextId).toBe(contextId);
  expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  const read = await client.getTask(GetTaskRequest.fromJSON({ id: taskId }));
  expect(read.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
}

/** Opens a v0.3 stream and reads it until the task reaches `state`. */
async function openV03(emu: Emulator, agentId: string, text: string, state: string) {
  const events = transportFor(emu, agentId).sendMessageStream(
    { message: userMessage({ text }, emu.extensionUri) },
    { signal: AbortSignal.timeout(15_000) },
  ) as Reader;
  const reached = await readUntil(events, (event) => stateOf(event) === state);
  if (reached.kind !== 'task' && reached.kind !== 'status-update') throw new Error('not a task event');
  const taskId = reached.kind === 'task' ? reached.id : reached.taskId;
  return { events, taskId, contextId: reached.contextId };
}

async function openV1(emu: Emulator, agentId: string, text: string, state: TaskState) {
  const { client } = await v1ClientFor(emu, agentId);
  const events = client.sendMessageStream(
    SendMessageRequest.fromJSON({ message: Message.toJSON(v1Message(text)) }),
  ) as V1Reader;
  const reached = await readUntil(events, (event) => v1StateOf(event) === state);
  const payload = reached.payload;
  if (payload?.$case !== 'task' && payload?.$case !== 'statusUpdate') throw new Error('not a task event');
  const taskId = payload.$case === 'task' ? payload.value.id : payload.value.taskId;
  return { events, taskId, contextId: payload.value.contextId };
}

/** Cancels over v0.3 once the stream's task reaches `state`, and returns what the stream sent after. */
async function cancelOnV03(emu: Emulator, agentId: string, text: string, state: string) {
  const { events, taskId, contextId } = await openV03(emu, agentId, text, state);
  await cancelV03(emu, agentId, taskId, contextId);
  return drain(events);
}

async function cancelOnV1(emu: Emulator, agentId: string, text: string, state: TaskState) {
  const { events, taskId, contextId } = await openV1(emu, agentId, text, state);
  await cancelV1(emu, agentId, taskId, contextId);
  return drain(events);
}

describe('cancelling a submitted task (the run paused before its first step)', () => {
  let emu: Emulator;
  // Long enough that no step comes before the cancel; the cancel ends the pause at once.
  beforeAll(async () => {
    emu = await startEmulator({ agentStepDelayMs: 600_000 });
  });
  afterAll(() => emu.close());

  it('v0.3', async () => {
    const rest = await cancelOnV03(emu, orderStatus, 'Where is order 1001?', 'submitted');
    expect(rest.map(stateOf)).not.toContain('working');
    expect(rest.map(stateOf)).not.toContain('completed');
  });

  it('v1.0', async () => {
    const rest = await cancelOnV1(emu, orderStatus, 'Where is order 1001?', TaskState.TASK_STATE_SUBMITTED);
    expect(rest.map(v1StateOf)).not.toContain(TaskState.TASK_STATE_COMPLETED);
  });
});

describe('cancelling a working task and one waiting for input', () => {
  let emu: Emulator;
  const held = heldEmbedding();
  beforeAll(async () => {
    emu = await startEmulator({ embed: held.embed });
  });
  afterAll(() => {
    held.release();
    return emu.close();
  });

  it('working, v0.3', async () => {
    const rest = await cancelOnV03(emu, productAdvisor, heldQuestion, 'working');
    expect(rest.map(stateOf)).not.toContain('completed');
  });

  it('working, v1.0', async () => {
    const rest = await cancelOnV1(emu, productAdvisor, heldQuestion, TaskState.TASK_STATE_WORKING);
    expect(rest.map(v1StateOf)).not.toContain(TaskState.TASK_STATE_COMPLETED);
  });

  it('input-required, v0.3', async () => {
    const { events, taskId, contextId } = await openV03(
      emu,
      orderStatus,
      'Hello from TCK!',
      'input-required',
    );
    await drain(events);
    await cancelV03(emu, orderStatus, taskId, contextId);
  });

  it('input-required, v1.0', async () => {
    const { events, taskId, contextId } = await openV1(
      emu,
      orderStatus,
      'Hello from TCK!',
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    await drain(events);
    await cancelV1(emu, orderStatus, taskId, contextId);
  });
});
