import {
  type Call,
  type CallTarget,
  callers,
  callMany,
  clientName,
  fetchName,
  openapiFetchName,
  openapiFetchTimeoutName,
} from './callers.js';

/** Which caller a profile run makes its calls with. */
export type ProfiledSubject = 'client' | 'openapi-fetch' | 'openapi-fetch-timeout' | 'fetch';

export interface ProfileCallsRequest {
  readonly target: CallTarget;
  readonly subject: ProfiledSubject;
  readonly calls: number;
  readonly inFlight: number;
}

const subjectNames: Record<ProfiledSubject, string> = {
  client: clientName,
  'openapi-fetch': openapiFetchName,
  'openapi-fetch-timeout': openapiFetchTimeoutName,
  fetch: fetchName,
};

/**
 * One subject's calls alone, for a CPU profile of the process (started with --cpu-prof): a warm-up,
 * then `calls` calls, so the profile is that subject's steady state and nothing else's.
 */
export async function profileCalls(
  request: ProfileCallsRequest,
): Promise<{ subject: string; callsPerSecond: number }> {
  const subject = subjectNames[request.subject];
  const call = callers(request.target, true).get(subject) as Call;
  await callMany(call, Math.min(request.calls, 1_000), request.inFlight);
  const started = performance.now();
  await callMany(call, request.calls, request.inFlight);
  const seconds = (performance.now() - started) / 1000;
  return { subject, callsPerSecond: request.calls / seconds };
}
