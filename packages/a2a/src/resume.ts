import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  InvalidParameterError,
  MalformedResponseError,
} from '@dataworkz/client';
import { IncompleteStreamError, JsonRpcError } from './errors.js';

/** How a run gets back to its task after its stream breaks. */
export interface ResumeOptions {
  /** Attempts in a row (resubscriptions, or polls once polling) before the run fails. Default 5. */
  maxAttempts?: number | undefined;
  /** Wait before the first attempt, in ms, doubled for each further one. Default 250. */
  initialDelayMs?: number | undefined;
  /** Longest wait between attempts, in ms. Default 5000. */
  maxDelayMs?: number | undefined;
  /** Wait between two reads of the task when the agent refuses resubscription, in ms. Default 1000. */
  pollIntervalMs?: number | undefined;
  /** Longest time, over all its gaps, the run may spend getting back to its task, in ms. Default 300000. */
  maxTotalMs?: number | undefined;
}

export type ResumePolicy = { [Name in keyof ResumeOptions]-?: number };

const DEFAULTS: ResumePolicy = {
  maxAttempts: 5,
  initialDelayMs: 250,
  maxDelayMs: 5000,
  pollIntervalMs: 1000,
  maxTotalMs: 300_000,
};

function checked(name: keyof ResumePolicy, value: number | undefined, integer: boolean): number {
  if (value === undefined) return DEFAULTS[name];
  const ok = typeof value === 'number' && (integer ? Number.isInteger(value) && value >= 1 : value >= 0);
  if (ok && Number.isFinite(value)) return value;
  const what = integer ? 'a positive integer' : 'a non-negative number of milliseconds';
  throw new InvalidParameterError(`resume.${name}`, `resume.${name} must be ${what}.`);
}

/** The policy for `resume` as given: on by default, off with `false`. Invalid values throw at once. */
export function resumePolicy(option: boolean | ResumeOptions | undefined): ResumePolicy | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return DEFAULTS;
  if (typeof option !== 'object' || option === null) {
    throw new InvalidParameterError('resume', 'resume must be true, false or an object of options.');
  }
  const policy = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof ResumePolicy)[]) {
    policy[name] = checked(name, option[name], name === 'maxAttempts');
  }
  return policy;
}

/** Whether the connection went away (a reset, a cut, an early end, an idle time-out): worth resuming. */
export function isStreamBreak(error: unknown): boolean {
  return error instanceof APIConnectionError || error instanceof IncompleteStreamError;
}

/** Whether the agent turned the resubscription down (rather than being unreachable): it may still be read. */
export function isRefusal(error: unknown): boolean {
  if (error instanceof JsonRpcError || error instanceof MalformedResponseError) return true;
  return error instanceof APIError && [400, 404, 405, 406, 415, 501].includes(error.status);
}

/** Whether another attempt may succeed: the connection broke again, or the server was briefly unable. */
export function isTransient(error: unknown): boolean {
  const status = error instanceof APIError ? error.status : 0;
  return isStreamBreak(error) || status === 408 || status === 429 || status >= 500;
}

/** Waits `ms`; rejects with APIUserAbortError when the run is stopped meanwhile. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new APIUserAbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
