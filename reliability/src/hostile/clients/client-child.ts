import { inspect } from 'node:util';
import { getTask, streamAgent } from '@dataworkz/a2a';
import Dataworkz, { type ClientOptions } from '@dataworkz/client';
import { openDescriptors, sampleProcess } from '../../runner/process-sample.js';
import { CALLER_BUG, type Job, type JobReport, type Outcome } from './job.js';

/**
 * The client side of a hostile-server case, in a process of its own so its peak RSS and descriptors
 * are the case's: runs the job against the URL in argv, then reports over IPC and exits.
 */
const [baseUrl = '', jobText = '{}'] = process.argv.slice(2);
const job = JSON.parse(jobText) as Job;

const secrets: string[] = [];
let tokenCalls = 0;
let refreshCalls = 0;
let current = 'QXR7-token-0000-WJ2M-8HTV';
function tokenFunction(mode: 'minted' | 'revoking') {
  return async ({ refresh }: { refresh: boolean }) => {
    tokenCalls += 1;
    if (refresh) refreshCalls += 1;
    if (mode === 'minted' || refresh) {
      // A slow identity provider, so refreshes overlap when they are not shared.
      if (refresh) await new Promise((resolve) => setTimeout(resolve, 20));
      current = `QXR7-token-${String(tokenCalls).padStart(4, '0')}-WJ2M-8HTV`;
    }
    if (!secrets.includes(current)) secrets.push(current);
    return current;
  };
}

const options: ClientOptions = { baseUrl, logLevel: 'off' };
if ('apiKey' in job.credential) {
  options.apiKey = job.credential.apiKey;
  secrets.push(job.credential.apiKey);
} else options.token = tokenFunction(job.credential.token);
if (job.timeout !== undefined) options.timeout = job.timeout;
if (job.maxRetries !== undefined) options.maxRetries = job.maxRetries;
if (job.maxResponseBytes !== undefined) options.maxResponseBytes = job.maxResponseBytes;
const dw = new Dataworkz(options);

async function call(): Promise<unknown> {
  switch (job.call) {
    case 'qna.list':
      return dw.qna.list(
        job.throwingOnResponse
          ? {
              onResponse() {
                throw new TypeError(CALLER_BUG);
              },
            }
          : {},
      );
    case 'streamAgent':
      return streamAgent(dw, 'agent-1', {
        text: 'Where is order 1001?',
        headersTimeoutMs: job.headersTimeoutMs,
        idleTimeoutMs: job.idleTimeoutMs,
      }).finalAnswer();
    case 'getTask':
      return getTask(dw, 'agent-1', 'task-1');
    case 'contextValues': {
      const values = {
        get tier(): string {
          throw new Error('getter broke');
        },
      };
      return streamAgent(dw, 'agent-1', { text: 'Hi', contextValues: values, extensionUri: 'urn:x' });
    }
  }
}

function outcomeOf(error: unknown): Outcome {
  if (!(error instanceof Error)) return { result: `threw ${typeof error}` };
  const { attempts, body } = error as { attempts?: number; body?: unknown };
  return {
    result: error.name,
    message: error.message.slice(0, 160),
    ...(attempts !== undefined ? { attempts } : {}),
    ...(body !== undefined
      ? { bodyChars: typeof body === 'string' ? body.length : JSON.stringify(body).length }
      : {}),
  };
}

/** Every 6-character piece of a sent credential that an error shows anywhere. */
function leaksIn(error: unknown): string[] {
  const text = `${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}\n${(error as Error)?.stack}`;
  const found: string[] = [];
  for (const secret of secrets) {
    for (let start = 0; start + 6 <= secret.length; start++) {
      const piece = secret.slice(start, start + 6);
      if (text.includes(piece) && !found.includes(piece)) found.push(piece);
    }
  }
  return found;
}

const fdsBefore = openDescriptors(process.pid);
const started = performance.now();
const settled = await Promise.allSettled(Array.from({ length: job.concurrent ?? 1 }, call));
const ms = performance.now() - started;
const outcomes = settled.map((s) => (s.status === 'fulfilled' ? { result: 'ok' } : outcomeOf(s.reason)));
const leaks = [...new Set(settled.flatMap((s) => (s.status === 'rejected' ? leaksIn(s.reason) : [])))];
// Closed sockets leave the table a moment after the call settles.
await new Promise((resolve) => setTimeout(resolve, 200));
const report: JobReport = {
  ms,
  outcomes,
  leaks,
  tokenCalls,
  refreshCalls,
  fdsBefore,
  fdsAfter: openDescriptors(process.pid),
  peakRss: sampleProcess(process.pid).peakRss,
};
process.send?.(report, () => process.exit(0));
