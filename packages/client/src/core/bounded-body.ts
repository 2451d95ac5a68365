/** What `readBoundedText` read: the text, and whether the body went on past the limit. */
export interface BoundedText {
  text: string;
  /** The body was longer than the limit; `text` holds its first `maxBytes` bytes. */
  overflow: boolean;
}

/**
 * Reads a body as text (UTF-8, or the charset given), decoding at most `maxBytes` bytes: the rest is never read, and the
 * stream is cancelled so the connection (and any decompression behind it) stops. The bytes counted
 * are the decoded ones, so a small compressed body cannot inflate past the limit. With
 * `keepPartial`, a body that breaks off yields what arrived before the break instead of failing.
 */
export async function readBoundedText(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  keepPartial = false,
  /** The charset to decode by (a label `TextDecoder` knows); UTF-8 when not given. */
  charset = 'utf-8',
): Promise<BoundedText> {
  if (!body) return { text: '', overflow: false };
  const reader = body.getReader();
  const decoder = new TextDecoder(charset);
  let text = '';
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (!keepPartial) throw error;
      reader.cancel().catch(() => {});
      return { text: text + decoder.decode(), overflow: false };
    }
    const { done, value } = chunk;
    if (done) return { text: text + decoder.decode(), overflow: false };
    size += value.byteLength;
    if (size > maxBytes) {
      const room = value.byteLength - (size - maxBytes);
      text += decoder.decode(value.subarray(0, room));
      reader.cancel().catch(() => {});
      return { text, overflow: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * A copy of `response` whose body ends once `maxBytes` bytes have passed: with `onOverflow`, the
 * body then fails with that error; without it, it simply ends there (a truncated body). The source
 * is cancelled at the limit either way. For bodies read by code this package does not control.
 */
export function limitBody(response: Response, maxBytes: number, onOverflow?: () => Error): Response {
  const source = response.body;
  if (source === null || !Number.isFinite(maxBytes)) return response;
  const reader = source.getReader();
  let size = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      size += value.byteLength;
      if (size <= maxBytes) {
        controller.enqueue(value);
        return;
      }
      reader.cancel().catch(() => {});
      if (onOverflow) {
        controller.error(onOverflow());
        return;
      }
      controller.enqueue(value.subarray(0, value.byteLength - (size - maxBytes)));
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
