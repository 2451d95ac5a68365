import type { CassetteEntry } from '../cassette/har.js';
import { utf8 } from '../neutral/bytes.js';

/**
 * One response as the service produces it: status, headers and a body: text (its Content-Length is
 * left to the adapter, which counts its bytes natively), bytes, or a stream (an SSE stream, a body a
 * fault cuts). Each adapter writes it its own way: node:http directly, and the
 * in-process `fetch` as a Fetch API `Response`. Building no `Response` on the node:http path keeps it
 * as fast as writing to node:http by hand.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | ReadableStream<Uint8Array> | null;
  /**
   * The headers as a list of names and values in turn, when a name repeats (a deployment's
   * `set-cookie`, passed on while recording): an adapter that can write them so does, else `headers`.
   */
  headerList?: readonly string[];
  /**
   * A recorded exchange's entry, captured and redacted once it is over (undefined if it was cut): the
   * console's log shows that one record rather than reading the exchange again.
   */
  recorded?: Promise<CassetteEntry | undefined>;
}

export function toResponse(answer: Answer): Response {
  const { status } = answer;
  let { headers, body } = answer;
  if (typeof body === 'string') {
    body = utf8(body);
    headers = { ...headers, 'content-length': String(body.length) };
  }
  const empty = status === 204 || status === 205 || status === 304;
  const list = answer.headerList;
  return new Response(empty ? null : (body as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null), {
    status,
    // As pairs: Node's Fetch API reads a record through a plain object, dropping a header named `__proto__`.
    headers: list ? pairsOf(list) : Object.entries(headers),
  });
}

function pairsOf(list: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < list.length; i += 2) pairs.push([list[i] as string, list[i + 1] as string]);
  return pairs;
}
