import { limitBody } from '../core/bounded-body.js';
import { ResponseTooLargeError } from '../core/errors.js';
import type { Deadline } from './deadline.js';

/**
 * A copy of `response` whose body stays under the call's deadline while the caller reads it:
 * a time-out, abort or dropped connection mid-body surfaces as this package's typed error, and the
 * timer is released when the body ends or is cancelled. With `maxBytes`, a longer body fails with
 * ResponseTooLargeError at the limit.
 */
export function guardBody(response: Response, deadline: Deadline, maxBytes?: number): Response {
  const limited =
    maxBytes === undefined
      ? response
      : limitBody(
          response,
          maxBytes,
          () => new ResponseTooLargeError(response.status, response.headers, maxBytes),
        );
  return untilBodyEnds(limited, deadline, true);
}

/**
 * A copy of a stream's `response` that no longer times out but still follows the caller's signal
 * until its body ends or is cancelled, when the deadline lets go of that signal: a run's resumed
 * attempts share one signal, and each would otherwise leave a listener on it.
 */
export function streamBody(response: Response, deadline: Deadline): Response {
  deadline.stopTimer();
  return untilBodyEnds(response, deadline, false);
}

function untilBodyEnds(response: Response, deadline: Deadline, classify: boolean): Response {
  const source = response.body;
  if (source === null) {
    deadline.clear();
    return response;
  }
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          deadline.clear();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        deadline.clear();
        controller.error(classify ? deadline.classify(error) : error);
      }
    },
    cancel(reason) {
      deadline.clear();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
