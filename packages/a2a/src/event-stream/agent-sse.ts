import { type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import type { AgentRun } from '../run.js';
import { followTask, type StreamAgentOptions, streamAgent } from '../stream-agent.js';
import { type EventPosition, eventId, lastEventPosition } from './event-ids.js';
import type { AgentSseEvent, AgentSseOptions } from './sse-events.js';

const DEFAULT_HEARTBEAT_MS = 15_000;

/** The headers of an event stream that no cache or proxy holds back. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // nginx buffers responses unless told not to.
  'x-accel-buffering': 'no',
});

/** Where the frames go: `write` may return a promise to hold the next frame back (backpressure). */
export interface SseSink {
  write(text: string): void | Promise<void>;
  /** Aborted when the client has gone: the run is stopped. */
  readonly signal: AbortSignal;
}

function nonNegative(name: string, value: number | undefined): number | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0))
    return value;
  throw new InvalidParameterError(name, `${name} must be a non-negative number of milliseconds.`);
}

/**
 * An agent run served as Server-Sent Events: a function that writes them to a sink, or undefined when
 * the `Last-Event-ID` names a stream that has ended (answer 204). A new connection starts the run
 * (`streamAgent`); a reconnection follows the task its id names, so the agent runs once. Invalid
 * options throw here; a `Last-Event-ID` this package did not write becomes an `error` event.
 */
export function agentSse(
  dw: Dataworkz,
  agentId: string,
  options: StreamAgentOptions,
  sse: AgentSseOptions = {},
): ((sink: SseSink) => Promise<void>) | undefined {
  const retryMs = nonNegative('retryMs', sse.retryMs);
  const heartbeatMs = nonNegative('heartbeatMs', sse.heartbeatMs) ?? DEFAULT_HEARTBEAT_MS;
  let position: EventPosition | undefined;
  let refusal: unknown;
  try {
    position = lastEventPosition(sse.lastEventId);
  } catch (error) {
    refusal = error;
  }
  if (position?.ended) return undefined;
  const run = refusal
    ? undefined
    : position
      ? followTask(dw, agentId, position.taskId, options)
      : streamAgent(dw, agentId, options);
  return (sink) => pump(dw, run, refusal, position, sse.raw === true, retryMs, heartbeatMs, sink);
}

async function pump(
  dw: Dataworkz,
  run: AgentRun | undefined,
  refusal: unknown,
  position: EventPosition | undefined,
  raw: boolean,
  retryMs: number | undefined,
  heartbeatMs: number,
  sink: SseSink,
): Promise<void> {
  let sequence = position?.sequence ?? 0;
  let taskId = position?.taskId;
  // Events go out numbered after the last one the client saw; an id names the task once it is known.
  const send = (event: AgentSseEvent, ended: boolean) => {
    sequence += 1;
    taskId = event.taskId ?? taskId;
    const id =
      taskId === undefined && !ended ? '' : `id: ${eventId({ taskId: taskId ?? '', sequence, ended })}\n`;
    return sink.write(`${id}data: ${JSON.stringify(event)}\n\n`);
  };
  const stop = () => run?.abort();
  sink.signal.addEventListener('abort', stop, { once: true });
  const heartbeat = heartbeatMs > 0 ? setInterval(() => void sink.write(': \n\n'), heartbeatMs) : undefined;
  // A quiet stream must not keep the process alive by its heartbeat alone.
  (heartbeat as { unref?: () => void } | undefined)?.unref?.();
  try {
    if (retryMs !== undefined) await sink.write(`retry: ${Math.round(retryMs)}\n\n`);
    if (run === undefined) throw refusal;
    for await (const event of run) {
      if (event.type !== 'task-update') continue;
      const { taskId: eventTaskId, contextId, data: step } = event;
      await send(
        { type: 'step', taskId: eventTaskId, contextId, step, ...(raw ? { raw: event.raw } : {}) },
        false,
      );
    }
    const final = await run.finalAnswer();
    const { taskId: finalTaskId, contextId, state, answer: text } = final;
    await send(
      {
        type: 'answer',
        taskId: finalTaskId,
        contextId,
        state,
        text,
        ...(raw ? { raw: final.event.raw } : {}),
      },
      true,
    );
  } catch (error) {
    // A client that has gone hears nothing more.
    if (sink.signal.aborted) return;
    await send(errorEvent(dw, error, run?.taskId ?? taskId), true);
  } finally {
    clearInterval(heartbeat);
    sink.signal.removeEventListener('abort', stop);
  }
}

/** The failure as the browser sees it: its class and its message, redacted by the client's one policy. */
function errorEvent(dw: Dataworkz, error: unknown, taskId: string | undefined): AgentSseEvent {
  const safe = dw.redact(error);
  if (!(safe instanceof Error))
    return { type: 'error', taskId, name: 'Error', message: 'The agent run failed.' };
  return { type: 'error', taskId, name: safe.name, message: dw.redact(String(safe.message)) };
}
