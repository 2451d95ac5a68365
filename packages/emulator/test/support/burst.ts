import { Agent, type IncomingMessage, request } from 'node:http';

/** What a burst of requests got: each answer's status, and the emulator's own count read at each answer. */
export interface BurstResult {
  statuses: number[];
  /** The largest value `sample` returned, read as each answer's headers arrived and on every turn of the loop. */
  maxSampled: number;
  /** Answers still open (streams), for the caller to end. */
  open: IncomingMessage[];
}

export interface BurstRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Sends `count` requests at once over loopback, each on its own socket (so none waits for another),
 * and settles once every one has its status. A 200 with an event stream is left open (its slot held)
 * unless `readStreams`; every other body is read to its end. `sample` is read as each answer arrives
 * and on every turn of the event loop until the last one has.
 */
export async function burst(
  url: string,
  count: number,
  make: (index: number) => BurstRequest,
  sample: () => number,
): Promise<BurstResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: count });
  const statuses: number[] = [];
  const open: IncomingMessage[] = [];
  let maxSampled = sample();
  const read = () => {
    maxSampled = Math.max(maxSampled, sample());
  };
  let done = false;
  const sampler = () => {
    read();
    if (!done) setImmediate(sampler);
  };
  setImmediate(sampler);
  const target = new URL(url);
  try {
    await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const sent = make(index);
        return new Promise<void>((resolve, reject) => {
          const req = request(
            {
              agent,
              host: target.hostname,
              port: target.port,
              method: sent.method,
              path: sent.path,
              headers: sent.headers,
            },
            (res) => {
              read();
              statuses.push(res.statusCode ?? 0);
              if (res.statusCode === 200 && res.headers['content-type']?.startsWith('text/event-stream')) {
                open.push(res);
                res.resume();
                resolve();
                return;
              }
              res.resume();
              res.on('end', () => resolve());
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(sent.body);
        });
      }),
    );
  } finally {
    done = true;
    agent.destroy();
  }
  read();
  return { statuses, maxSampled, open };
}

/** How many of `statuses` are `status`. */
export function countOf(statuses: readonly number[], status: number): number {
  return statuses.filter((s) => s === status).length;
}
