import Dataworkz, { type paths } from '@dataworkz/client';
import createClient from 'openapi-fetch';

/** One call to the list-QnA-systems route, parsed: what each section repeats. */
export type Call = () => Promise<unknown>;

export interface CallTarget {
  readonly url: string;
  readonly apiKey: string;
}

export const clientName = '@dataworkz/client';
export const openapiFetchName = 'openapi-fetch alone';
export const fetchName = 'raw fetch';
export const openapiFetchTimeoutName = 'openapi-fetch with a time-out';
const route = '/api/qna/v1/systems';
// The client's default time-out.
const CLIENT_TIMEOUT_MS = 600_000;

/** The bare baseline: fetch and parse the JSON body, nothing else. */
export function rawFetchCall(target: CallTarget): Call {
  const url = `${target.url}${route}`;
  const headers = { authorization: `SSWS ${target.apiKey}` };
  return async () => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
    return response.json();
  };
}

/**
 * The library the client is built on, as its README shows it: a bare `createClient` with the
 * client's generated `paths` and the same authorization header, every option at its default. What
 * it costs over raw fetch is the floor the client's choice of stack sets.
 */
function openapiFetchCall(target: CallTarget): Call {
  const api = createClient<paths>({
    baseUrl: target.url,
    headers: { authorization: `SSWS ${target.apiKey}` },
  });
  return async () => {
    const { data, response } = await api.GET(route);
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${route}`);
    return data;
  };
}

/**
 * openapi-fetch alone as a careful caller uses it: every call bounded by a time-out signal
 * (`AbortSignal.timeout`, the client's default of 10 minutes). The client keeps its time-outs, so this is the
 * like-for-like baseline: what a signal handed to fetch costs shows against the bare subject.
 */
function openapiFetchTimeoutCall(target: CallTarget): Call {
  const api = createClient<paths>({
    baseUrl: target.url,
    headers: { authorization: `SSWS ${target.apiKey}` },
  });
  return async () => {
    const { data, response } = await api.GET(route, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${route}`);
    return data;
  };
}

/** The client as users configure it (default retries, time-out and logging). */
export function clientCall(target: CallTarget): Call {
  const dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey });
  return () => dw.qna.list();
}

/**
 * The subjects of the call sections, baselines first: raw fetch, openapi-fetch alone, the client;
 * with `withTimeout`, openapi-fetch with a time-out signal too.
 */
export function callers(target: CallTarget, withTimeout = false): Map<string, Call> {
  const subjects = new Map<string, Call>([
    [fetchName, rawFetchCall(target)],
    [openapiFetchName, openapiFetchCall(target)],
  ]);
  if (withTimeout) subjects.set(openapiFetchTimeoutName, openapiFetchTimeoutCall(target));
  subjects.set(clientName, clientCall(target));
  return subjects;
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
