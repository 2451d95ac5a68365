import autocannon from 'autocannon';

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly seconds: number;
}

/**
 * One autocannon run; a run with any error or non-2xx answer measured something else, so it throws.
 * autocannon only notices its duration is over at its next sample, one a second by default: a run of
 * under a second (a quick plan's) samples once at its end instead, else it would last a second anyway.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const sampleMs = Math.min(1000, options.seconds * 1000);
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.seconds,
    sampleInt: sampleMs,
    timeout: 10,
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0 || result.requests.total === 0) {
    throw new Error(
      `${options.url}: ${result.requests.total} requests, ${result.errors} errors, ${result.timeouts} time-outs, ${result.non2xx} non-2xx`,
    );
  }
  return {
    // The mean of the requests counted in each sample, as a rate per second.
    requestsPerSecond: (result.requests.average * 1000) / sampleMs,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
