import type { AgentCard, Message } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

/** Every this many events, one is a task update (the rest stream the answer as artifact chunks). */
const taskUpdateEvery = 100;
/** Events published between yields to the event loop, so the stream is written while it is produced. */
const batch = 256;

export function streamAgentCard(url: string): AgentCard {
  return {
    name: 'Bench stream agent',
    description: 'Streams a fixed number of events as fast as the server can write them.',
    url,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
}

/**
 * An agent whose run is exactly `events` events: the task, task updates (`SVC_STATUS_UPDATE` data parts)
 * among answer chunks, and the final `completed` status update carrying the answer.
 * Answer chunks append to one artifact: the SDK's result manager copies a task's whole history for each
 * status message, so a stream made only of status messages would cost the server O(n²).
 */
export class StreamAgentExecutor implements AgentExecutor {
  constructor(private readonly events: number) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'working' }, history: [] });
    const middle = Math.max(0, this.events - 2);
    for (let i = 0; i < middle; i++) {
      if (i % taskUpdateEvery === 0) {
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          final: false,
          status: { state: 'working', message: taskUpdate(taskId, contextId, i) },
        });
      } else {
        bus.publish({
          kind: 'artifact-update',
          taskId,
          contextId,
          append: i > 1,
          lastChunk: false,
          artifact: { artifactId: 'answer', parts: [{ kind: 'text', text: `chunk ${i} ` }] },
        });
      }
      if (i % batch === batch - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId,
      final: true,
      status: {
        state: 'completed',
        message: {
          kind: 'message',
          role: 'agent',
          messageId: `${taskId}-answer`,
          taskId,
          contextId,
          parts: [{ kind: 'text', text: `Streamed ${this.events} events.` }],
        },
      },
    });
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

function taskUpdate(taskId: string, contextId: string, step: number): Message {
  return {
    kind: 'message',
    role: 'agent',
    messageId: `${taskId}-update-${step}`,
    taskId,
    contextId,
    parts: [
      {
        kind: 'data',
        data: { step, message: `Working on step ${step}` },
        metadata: { type: 'SVC_STATUS_UPDATE' },
      },
    ],
  };
}
