import type { HostileCase } from '../../../runner/case.js';
import { againstClient, allEnded, KEY, silent, summary } from '../harness.js';

/** Item 1: a server that reads the request and never answers; the call must end at its time-out. */
function noHeaders(name: string, call: 'streamAgent' | 'getTask'): HostileCase {
  return {
    name,
    run: (size) => {
      const timeout = size === 'quick' ? 500 : 5_000;
      return againstClient(
        silent,
        { call, credential: { apiKey: KEY }, timeout, maxRetries: 0, idleTimeoutMs: 60_000 },
        (report) => ({
          pass: allEnded(report, 'APIConnectionTimeoutError') && report.ms < timeout + 2_000,
          note: `${summary(report)} after ${Math.round(report.ms)} ms (timeout ${timeout} ms)`,
        }),
      );
    },
  };
}

export const streamNoHeaders = noHeaders('1 streamAgent: no response headers, ever', 'streamAgent');
export const getTaskNoHeaders = noHeaders('1 getTask: no response headers, ever', 'getTask');
