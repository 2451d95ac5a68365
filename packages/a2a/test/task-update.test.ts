// TaskUpdate: the typed data of a `task-update` event, open to kinds and fields it does not name.
// `pnpm typecheck` checks the @ts-expect-error lines and the expectTypeOf assertions.
import {
  type AgentEvent,
  type AgentTaskUpdateEvent,
  streamAgent,
  type TaskUpdate,
  type TaskUpdateToolType,
  type TaskUpdateType,
} from '@dataworkz/a2a';
import { Dataworkz, type WithUnknownFields } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { completed, type RawServer, requestId, sseResult, startRawServer } from './support/raw-server.js';

// Type-checked, never run: every line reads a misspelled field and must not compile.
function readMisspelled(update: TaskUpdate) {
  return [
    // @ts-expect-error the field is message
    update.mesage,
    // @ts-expect-error the field is toolType
    update.tooltype,
  ];
}

describe('the TaskUpdate type', () => {
  it('is the data of a task-update event, with known fields only', () => {
    expectTypeOf<AgentTaskUpdateEvent['data']>().toEqualTypeOf<TaskUpdate>();
    expectTypeOf(readMisspelled).toBeFunction();
    expectTypeOf<TaskUpdate['type']>().toEqualTypeOf<TaskUpdateType>();
    expectTypeOf<TaskUpdate['message']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TaskUpdate['scenario']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TaskUpdate['tool']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TaskUpdate['toolType']>().toEqualTypeOf<TaskUpdateToolType | undefined>();
  });

  it('names the service’s step kinds and tool types, and admits others', () => {
    expectTypeOf<'Scenario Selection'>().toExtend<TaskUpdateType>();
    expectTypeOf<'Tool Execution'>().toExtend<TaskUpdateType>();
    expectTypeOf<'Join'>().toExtend<TaskUpdateType>();
    expectTypeOf<'A_KIND_NOT_NAMED'>().toExtend<TaskUpdateType>();
    expectTypeOf<'call-agent'>().toExtend<TaskUpdateToolType>();
    expectTypeOf<'a-new-tool-type'>().toExtend<TaskUpdateToolType>();
    // Still a plain JSON object for code that takes one.
    expectTypeOf<TaskUpdate>().toExtend<{ [key: string]: unknown }>();
  });
});

describe('task updates at run time', () => {
  const step = {
    type: 'Tool Execution',
    name: 'GetRAOrderDetails',
    toolType: 'dw-data-api',
    toolId: '9e698d6c',
    executionId: '277966e9-1',
    status: 'completed',
    metadata: {},
    children: [{ type: 'Scenario Selection', name: 'ReviewAnalysis' }],
  };
  let server: RawServer;
  let emu: Emulator;

  beforeAll(async () => {
    server = await startRawServer((_req, res, body) => {
      const id = requestId(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const update = {
        kind: 'status-update',
        taskId: 't-1',
        contextId: 'c-1',
        final: false,
        status: {
          state: 'working',
          message: {
            kind: 'message',
            role: 'agent',
            messageId: 'u-1',
            parts: [{ kind: 'data', data: step, metadata: { type: 'SVC_STATUS_UPDATE' } }],
          },
        },
      };
      res.end(sseResult(id, update) + sseResult(id, completed('Done')));
    });
    emu = await startEmulator({ port: 0, host: '127.0.0.1', apiKeys: ['task-update-key'] });
  });
  afterAll(async () => {
    await server.close();
    await emu.close();
  });

  async function updatesOf(dw: Dataworkz, agentId: string, text: string): Promise<TaskUpdate[]> {
    const events: AgentEvent[] = [];
    for await (const event of streamAgent(dw, agentId, { text })) events.push(event);
    return events.flatMap((event) => (event.type === 'task-update' ? [event.data] : []));
  }

  it('pass every field through untouched; unknown ones are read with a cast', async () => {
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const [update] = await updatesOf(dw, 'agent-1', 'Hi');
    expect(update).toEqual(step);
    expect(update?.type).toBe('Tool Execution');
    expect(update?.toolType).toBe('dw-data-api');
    expect((update as WithUnknownFields<TaskUpdate>).children).toEqual(step.children);
  });

  it('the emulator’s steps fit the type: a kind, a message, and only fields it names', async () => {
    const dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, maxRetries: 0 });
    const updates = await updatesOf(dw, seed.agents.orderStatus.agentId, 'Where is order 1001?');
    expect(updates.length).toBeGreaterThan(0);
    const known = new Set<string>([
      'type',
      'message',
      'name',
      'scenario',
      'tool',
      'toolType',
      'toolId',
      'executionId',
      'status',
      'llmThought',
      'metadata',
    ] satisfies (keyof TaskUpdate)[]);
    for (const update of updates) {
      expect(typeof update.type).toBe('string');
      expect(typeof update.message).toBe('string');
      expect(Object.keys(update).filter((key) => !known.has(key))).toEqual([]);
    }
  });
});
