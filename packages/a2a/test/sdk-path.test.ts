// Every A2A exchange a run makes goes through the official SDK's client code in this process: the
// stream, the resubscription of a resumed run, the task calls and the card. The SDK's own classes are
// watched (the very modules @dataworkz/a2a imports), under v0.3 and under v1.0.
import { DefaultAgentCardResolver, JsonRpcTransport } from '@a2a-js/sdk/client';
import { JsonRpcTransportFactory } from '@a2a-js/sdk-v1/client';
import { cancelTask, getAgentCard, getTask, streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const apiKey = 'sdk-path-key';
const agentId = seed.agents.orderStatus.agentId;

describe.each(['0.3', '1.0'] as const)('over A2A %s', (version) => {
  let emu: Emulator;
  let dw: Dataworkz;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], a2aVersion: version, agentStepDelayMs: 15 });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
  });
  afterAll(() => emu.close());
  afterEach(() => {
    vi.restoreAllMocks();
    emu.faults.clear();
  });

  it('streams, resumes and reads and cancels tasks through the SDK transport of the version', async () => {
    const v03 = {
      stream: vi.spyOn(JsonRpcTransport.prototype, 'sendMessageStream'),
      resubscribe: vi.spyOn(JsonRpcTransport.prototype, 'resubscribeTask'),
      get: vi.spyOn(JsonRpcTransport.prototype, 'getTask'),
      cancel: vi.spyOn(JsonRpcTransport.prototype, 'cancelTask'),
    };
    const v1Create = vi.spyOn(JsonRpcTransportFactory.prototype, 'create');
    const protocol = version;

    // A run cut after its third event resumes through tasks/resubscribe (SubscribeToTask).
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3, times: 1 });
    const run = streamAgent(dw, agentId, {
      text: 'Where is order 1001?',
      protocol,
      resume: { initialDelayMs: 5 },
    });
    const events = [];
    for await (const event of run) events.push(event);
    expect(events.some((event) => event.type === 'resumed')).toBe(true);
    const taskId = run.taskId as string;
    const task = await getTask(dw, agentId, taskId, { protocol });
    expect(task.status.state).toBe('completed');
    await cancelTask(dw, agentId, taskId, { protocol }).catch(() => undefined);

    if (version === '0.3') {
      expect(v03.stream).toHaveBeenCalledTimes(1);
      expect(v03.resubscribe.mock.calls.length + v03.get.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(v03.get).toHaveBeenCalled();
      expect(v03.cancel).toHaveBeenCalledTimes(1);
      expect(v1Create).not.toHaveBeenCalled();
    } else {
      // The stream, the resubscription (or a read of the ended task), the read and the cancel.
      expect(v1Create.mock.calls.length).toBeGreaterThanOrEqual(4);
      expect(v03.stream).not.toHaveBeenCalled();
    }
  });

  it('reads the card through the SDK card resolver', async () => {
    const resolve = vi.spyOn(DefaultAgentCardResolver.prototype, 'resolve');
    const card = await getAgentCard(dw, agentId);
    expect(card.name).toBeTruthy();
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(String(resolve.mock.calls[0]?.[0])).toMatch(/\/\.well-known\/agent-card\.json$/);
  });
});
