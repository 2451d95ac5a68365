import Dataworkz from '@dataworkz/client';

/** One call to the list-QnA-systems route, parsed: what each section repeats. */
export type Call = () => Promise<unknown>;

export interface CallTarget {
  readonly url: string;
  readonly apiKey: string;
}

export const clientName = '@dataworkz/client';
export const fetchName = 'raw fetch';

/** The bare baseline: fetch and parse the JSON body, nothing else. */
export function rawFetchCall(target: CallTarget): Call {
  const url = `${target.url}/api/qna/v1/systems`;
  const headers = { authorization: `SSWS ${target.apiKey}` };
  return async () => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
    return response.json();
  };
}

/** The client as users configure it (default retries, time-out and logging). */
export function clientCall(target: CallTarget): Call {
  const dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey });
  return () => dw.qna.list();
}

export function callers(target: CallTarget): Map<string, Call> {
  return new Map([
    [fetchName, rawFetchCall(target)],
    [clientName, clientCall(target)],
  ]);
}

/** `total` calls, `inFlight` at a time; resolves when all have answered. */
export async function callMany(call: Call, total: number, inFlight: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
}
