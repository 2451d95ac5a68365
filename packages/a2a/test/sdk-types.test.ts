import type { Message, Part, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type {
  A2AArtifactUpdate,
  A2AMessage,
  A2APart,
  A2AStatusUpdate,
  A2AStreamEvent,
  A2ATask,
} from '@dataworkz/a2a';
import { describe, expect, expectTypeOf, it } from 'vitest';

describe("the package's A2A types", () => {
  it("accept the SDK's objects, and the SDK accepts ours", () => {
    expectTypeOf<Message>().toExtend<A2AMessage>();
    expectTypeOf<Task>().toExtend<A2ATask>();
    expectTypeOf<TaskStatusUpdateEvent>().toExtend<A2AStatusUpdate>();
    expectTypeOf<TaskArtifactUpdateEvent>().toExtend<A2AArtifactUpdate>();
    expectTypeOf<
      Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent
    >().toExtend<A2AStreamEvent>();
  });

  it('are accepted where the SDK expects its own (checked by the compiler)', () => {
    // expect-type cannot compare these unions; plain assignments can.
    const toSdkMessage = (message: A2AMessage): Message => message;
    const toSdkPart = (part: A2APart): Part => part;
    const part: A2APart = {
      kind: 'file',
      file: { uri: 'https://files.test/a.pdf', mimeType: 'application/pdf' },
    };
    const message: A2AMessage = { kind: 'message', role: 'user', messageId: 'm', parts: [part] };
    expect(toSdkMessage(message)).toBe(message);
    expect(toSdkPart(part)).toBe(part);
  });
});
