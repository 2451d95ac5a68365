import { cancelTask, getTask, JsonRpcError, streamAgent, TaskFailedError } from '@dataworkz/a2a';
import {
  APIUserAbortError,
  AuthenticationError,
  Dataworkz,
  InvalidParameterError,
  NotFoundError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSpeaking } from './support/speaking.js';

const apiKey = 'tasks-e2e-key-5f1c';
const orderStatus = seed.agents.orderStatus.agentId;

// Under each A2A version the emulator speaks (under v1.0: GetTask and CancelTask).
describe.each(['0.3', '1.0'] as const)('over A2A %s', (version) => {
  let emu: Emulator;
  let dw: Dataworkz;

  beforeAll(async () => {
    // Steps far apart: a task stays running until it is cancelled.
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 30_000, a2aVersion: version });
    dw = await clientSpeaking(version, emu.url, apiKey);
  });
  afterAll(() => emu.close());

  describe('getTask and cancelTask against the emulator', () => {
    it('cancels a running task; the stream ends canceled and getTask reports it', async () => {
      const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
      let canceled: Awaited<ReturnType<typeof cancelTask>> | undefined;
      const states: string[] = [];
      for await (const event of run) {
        if (event.type === 'task' || event.type === 'status') states.push(event.state);
        if (event.type === 'task' && event.taskId) {
          const running = await getTask(dw, orderStatus, event.taskId);
          expect(running).toMatchObject({ kind: 'task', id: event.taskId, contextId: event.contextId });
          expect(running.status.state).not.toBe('canceled');
          canceled = await cancelTask(dw, orderStatus, event.taskId);
        }
      }
      expect(canceled).toMatchObject({ kind: 'task', id: run.taskId, status: { state: 'canceled' } });
      expect(states.at(-1)).toBe('canceled');
      const failure = await run.finalAnswer().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TaskFailedError);
      expect((failure as TaskFailedError).state).toBe('canceled');

      const task = await getTask(dw, orderStatus, run.taskId as string, { historyLength: 1 });
      expect(task.id).toBe(run.taskId);
      expect(task.status.state).toBe('canceled');
      expect(task.history?.length ?? 0).toBeLessThanOrEqual(1);
    }, 20_000);

    it('an unknown task is a JsonRpcError with the A2A code for "task not found"', async () => {
      for (const call of [getTask, cancelTask]) {
        const error = await call(dw, orderStatus, 'no-such-task').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(JsonRpcError);
        expect((error as JsonRpcError).code).toBe(-32001);
      }
    }, 10_000);

    it('maps HTTP statuses to the client errors and never shows the key', async () => {
      const wrong = new Dataworkz({ baseUrl: emu.url, apiKey: 'tasks-wrong-key-93ab', maxRetries: 0 });
      const denied = await getTask(wrong, orderStatus, 'any').catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(AuthenticationError);
      expect(JSON.stringify(denied)).not.toContain('tasks-wrong-key-93ab');
      expect(String((denied as Error).stack)).not.toContain('tasks-wrong-key-93ab');
      await expect(getTask(dw, 'no-such-agent', 'any')).rejects.toBeInstanceOf(NotFoundError);
    }, 10_000);

    it('rejects bad arguments before sending, and honours an aborted signal', async () => {
      const before = emu.requests.length;
      await expect(getTask(dw, orderStatus, '')).rejects.toBeInstanceOf(InvalidParameterError);
      await expect(getTask(dw, orderStatus, 't', { historyLength: -1 })).rejects.toBeInstanceOf(
        InvalidParameterError,
      );
      await expect(cancelTask(dw, orderStatus, 't', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
        APIUserAbortError,
      );
      expect(emu.requests.length).toBe(before);
    }, 10_000);
  });
});
