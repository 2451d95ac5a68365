import type { Context } from '@opentelemetry/api';
import { callerCode } from './caller-failure.js';
import type { Log } from './log.js';
import { Outgoing } from './outgoing.js';
import { redactHeaders, redactUrl } from './redact.js';
import { followRedirects, type RedirectExchange } from './redirects.js';
import { injectTraceHeaders } from './telemetry.js';

/** What an exchange needs of the transport. */
export interface Exchange extends RedirectExchange {
  log: Log;
}

/**
 * One HTTP exchange with the credential set; follows redirects itself so the credential never
 * reaches another origin. Logs a debug line per exchange.
 */
export async function dispatch(
  exchange: Exchange,
  input: Request | Outgoing,
  authorization: string,
  attempt: number,
  traceContext: Context,
): Promise<Response> {
  const request = input instanceof Outgoing ? input : await Outgoing.from(input);
  request.headers.set('authorization', authorization);
  injectTraceHeaders(traceContext, request.headers);
  const { log } = exchange;
  if (!log.enabled('debug')) return followRedirects(exchange, request, authorization);
  const started = performance.now();
  // Secret-named parameters and headers by name, and the client's credentials wherever else they ride (a path).
  const redact = exchange.redactorFor(authorization);
  const url = redact(redactUrl(request.url));
  let response: Response;
  try {
    response = await followRedirects(exchange, request, authorization);
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    callerCode(() =>
      log.debug(`${request.method} ${url} failed (attempt ${attempt}, ${durationMs} ms)`, {
        method: request.method,
        url,
        attempt,
        durationMs,
        error: error instanceof Error ? error.name : typeof error,
      }),
    );
    throw error;
  }
  const durationMs = Math.round(performance.now() - started);
  try {
    callerCode(() =>
      log.debug(`${request.method} ${url} ${response.status} (attempt ${attempt}, ${durationMs} ms)`, {
        method: request.method,
        url,
        status: response.status,
        attempt,
        durationMs,
        headers: redact(redactHeaders(request.headers)),
      }),
    );
  } catch (error) {
    response.body?.cancel().catch(() => {});
    throw error;
  }
  return response;
}
