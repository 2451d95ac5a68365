import type { Answer } from '../http/answer.js';
import { utf8 } from '../neutral/bytes.js';
import { type ControlContext, faultState, rowOf } from './context.js';
import type { LiveState } from './types.js';

/**
 * The console's one live channel, as server-sent events: a `state` event (faults in force with their
 * uses left, rate limit, open streams, the mode) at once and after each change, and an `entry` event
 * per new or changed entry of the request log, until the caller goes.
 */
export function liveEvents(ctx: ControlContext, onClose: (listener: () => void) => void): Answer {
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(utf8(text));
        } catch {
          stop();
        }
      };
      write(': the console, live\n\n');
      let sent = '';
      const sendState = () => {
        const { routes: _routes, ...faults } = faultState(ctx);
        const state: LiveState = { ...faults, openStreams: ctx.openStreams, mode: ctx.mode() };
        const data = JSON.stringify(state);
        if (data === sent) return;
        sent = data;
        write(`event: state\ndata: ${data}\n\n`);
      };
      sendState();
      // A burst of changes (a stream's start and a fault's use, say) goes out as one event.
      let pending: ReturnType<typeof setTimeout> | undefined;
      const unsubscribeState = ctx.onChange(() => {
        pending ??= setTimeout(() => {
          pending = undefined;
          sendState();
        }, 0);
      });
      const log = ctx.exchanges;
      const unsubscribeLog = log?.subscribe((entry) => {
        // Entries are redacted as they are captured: the log holds nothing else.
        write(`event: entry\ndata: ${JSON.stringify(rowOf(entry))}\n\n`);
      });
      stop = () => {
        unsubscribeState();
        unsubscribeLog?.();
        if (pending) clearTimeout(pending);
      };
      onClose(() => stop());
    },
    cancel() {
      stop();
    },
  });
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
    body,
  };
}
