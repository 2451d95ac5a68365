import type { Message as LegacyMessage, Task as LegacyTask } from '@a2a-js/sdk';
import type { ExecutionEventBus as LegacyBus, RequestContext as LegacyContext } from '@a2a-js/sdk/server';
import { legacyPushNotificationToV1StreamResponse } from '@a2a-js/sdk-v1/compat/v0_3';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk-v1/server';
import type { DataworkzAgentExecutor } from '../executor.js';
import { legacyMessage, legacyTask } from './legacy-shapes.js';

/**
 * The v0.3 events an agent publishes, onto a v1 bus: each is read by the SDK's own v0.3 reader
 * (the one it uses for v0.3 push notifications) into the v1 event it stands for.
 */
function legacyBusOver(bus: ExecutionEventBus): LegacyBus {
  const adapter = {
    publish(event: unknown) {
      const payload = legacyPushNotificationToV1StreamResponse(event).payload;
      switch (payload?.$case) {
        case 'task':
          bus.publish(AgentEvent.task(payload.value));
          break;
        case 'message':
          bus.publish(AgentEvent.message(payload.value));
          break;
        case 'statusUpdate':
          bus.publish(AgentEvent.statusUpdate(payload.value));
          break;
        case 'artifactUpdate':
          bus.publish(AgentEvent.artifactUpdate(payload.value));
          break;
      }
    },
    finished: () => bus.finished(),
  };
  // The agents only publish and finish; listeners are the server's business, on the v1 bus.
  return adapter as unknown as LegacyBus;
}

/** The same agents under A2A v1.0: requests read into v0.3 shapes, events written back as v1. */
export class V1AgentExecutor implements AgentExecutor {
  constructor(private readonly agent: DataworkzAgentExecutor) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    // A v1 stream must begin with the task or a message, a continued task included.
    if (ctx.task) bus.publish(AgentEvent.task(ctx.task));
    const userMessage: LegacyMessage = legacyMessage(ctx.userMessage);
    const task: LegacyTask | undefined = ctx.task ? legacyTask(ctx.task) : undefined;
    const legacy = {
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      userMessage,
      task,
      context: ctx.context,
    } as unknown as LegacyContext;
    await this.agent.execute(legacy, legacyBusOver(bus));
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    await this.agent.cancelTask(taskId, legacyBusOver(bus));
  }
}
