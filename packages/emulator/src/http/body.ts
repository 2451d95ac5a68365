import { HttpError } from './errors.js';

/** A request body as received: its bytes (at most the limit), its whole size, and why it was refused, if it was. */
export interface ReceivedBody {
  bytes: Uint8Array;
  /** Bytes received, including any past the limit. */
  size: number;
  /** 413 over the limit, 400 when the peer stopped sending. */
  refusal?: HttpError;
}

export const noBody: ReceivedBody = { bytes: new Uint8Array(0), size: 0 };

/** Past this much a body is abandoned instead of drained, so a huge upload cannot tie the emulator up. */
const drainLimit = (limit: number): number => Math.max(limit * 4, 16 * 1024 * 1024);

const tooLarge = (limit: number) =>
  new HttpError(413, `Request body larger than ${limit} bytes`, {}, 'PAYLOAD_TOO_LARGE');

export const incomplete = () =>
  new HttpError(400, 'The request body was not completely received', {}, 'INCOMPLETE_BODY');

/** Keeps at most `limit` bytes of the chunks it is given, and counts them all. */
export class BoundedBody {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  size = 0;

  constructor(private readonly limit: number) {}

  /** Adds a chunk; false once the body is past the drain limit and should be abandoned. */
  add(chunk: Uint8Array): boolean {
    const room = this.limit - this.size;
    this.size += chunk.length;
    if (room > 0) {
      const part = room >= chunk.length ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    return this.size <= drainLimit(this.limit);
  }

  result(refusal?: HttpError): ReceivedBody {
    const bytes = this.chunks.length === 1 ? (this.chunks[0] as Uint8Array) : concat(this.chunks, this.kept);
    const settled = refusal ?? (this.size > this.limit ? tooLarge(this.limit) : undefined);
    return settled ? { bytes, size: this.size, refusal: settled } : { bytes, size: this.size };
  }
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Reads a Fetch API request body through its stream, keeping at most `limit` bytes. */
export async function readStreamBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<ReceivedBody> {
  if (!body) return noBody;
  const bounded = new BoundedBody(limit);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return bounded.result();
      if (!bounded.add(value)) {
        await reader.cancel().catch(() => {});
        return bounded.result(tooLarge(limit));
      }
    }
  } catch {
    return bounded.result(incomplete());
  }
}
