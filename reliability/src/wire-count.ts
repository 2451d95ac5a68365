import type { Fetch } from '@dataworkz/client';
import { createParser } from 'eventsource-parser';

/**
 * A fetch that counts the Server-Sent Events arriving on each event stream, parsed independently of
 * the client, so what the emulator sent can be compared with what the caller received.
 */
export function countingFetch(): { fetch: Fetch; events: () => number } {
  let events = 0;
  const fetch: Fetch = async (request) => {
    const response = await globalThis.fetch(request);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.startsWith('text/event-stream')) return response;
    const parser = createParser({
      onEvent: () => {
        events += 1;
      },
    });
    const decoder = new TextDecoder();
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch, events: () => events };
}
