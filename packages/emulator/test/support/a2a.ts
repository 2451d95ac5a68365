import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { JsonRpcTransport, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import type { Emulator } from '@dataworkz/emulator';

export type StreamEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

export interface StreamCall {
  text: string;
  values?: Record<string, unknown>;
  extensions?: string[];
  llmId?: string;
  taskId?: string;
  contextId?: string;
  signal?: AbortSignal;
  apiKey?: string;
}

/** The raw @a2a-js/sdk 0.3.14 transport against an agent's stream endpoint, with the emulator's key. */
export function transportFor(emu: Emulator, agentId: string, call: { llmId?: string; apiKey?: string } = {}) {
  const query = call.llmId ? `?llmId=${encodeURIComponent(call.llmId)}` : '';
  return new JsonRpcTransport({
    endpoint: `${emu.url}/api/agents/v1/a2a/${agentId}/stream${query}`,
    fetchImpl: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `SSWS ${call.apiKey ?? emu.apiKey}`);
      return fetch(input, { ...init, headers });
    },
  });
}

export function userMessage(call: StreamCall, uri: string): Message {
  return {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    parts: [
      { kind: 'text', text: call.text },
      ...(call.values ? [{ kind: 'data' as const, data: call.values, metadata: { [uri]: true } }] : []),
    ],
    ...(call.taskId ? { taskId: call.taskId } : {}),
    ...(call.contextId ? { contextId: call.contextId } : {}),
  };
}

/** Streams one message and collects every event until the server ends the stream. */
export async function streamAll(emu: Emulator, agentId: string, call: StreamCall): Promise<StreamEvent[]> {
  const transport = transportFor(emu, agentId, call);
  const events: StreamEvent[] = [];
  const serviceParameters = call.extensions
    ? ServiceParameters.create(withA2AExtensions(...call.extensions))
    : undefined;
  for await (const event of transport.sendMessageStream(
    { message: userMessage(call, emu.extensionUri) },
    {
      signal: call.signal ?? AbortSignal.timeout(10_000),
      ...(serviceParameters ? { serviceParameters } : {}),
    },
  )) {
    events.push(event);
  }
  return events;
}

export function finalStatus(events: StreamEvent[]): TaskStatusUpdateEvent {
  const last = events.at(-1);
  if (last?.kind !== 'status-update' || !last.final)
    throw new Error('the stream did not end with a final status-update');
  return last;
}

export function answerText(event: TaskStatusUpdateEvent): string {
  return (event.status.message?.parts ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

/** The data of every SVC_STATUS_UPDATE task update, in order. */
export function taskUpdates(events: StreamEvent[]): Record<string, unknown>[] {
  return events.flatMap((e) =>
    e.kind === 'status-update' && !e.final
      ? (e.status.message?.parts ?? [])
          .filter((p) => p.kind === 'data' && p.metadata?.type === 'SVC_STATUS_UPDATE')
          .map((p) => (p.kind === 'data' ? p.data : {}))
      : [],
  );
}
