import { InvalidParameterError } from '../core/errors.js';
import { checkHeaderRecord } from '../core/params.js';
import type { RequestOptions } from '../core/request-options.js';

/** Every key of RequestOptions: the compiler fails here when the interface gains one. */
const requestOptionKeys = Object.keys({
  signal: true,
  timeout: true,
  headers: true,
  maxRetries: true,
  maxResponseBytes: true,
  onResponse: true,
  onRetry: true,
} satisfies Record<keyof RequestOptions, true>);

/**
 * Refuses an options object with a key `known` does not list: a misspelt option, or a whole object
 * spread in, would otherwise be dropped (or worse, half taken) without a word.
 * @param options what the caller passed
 * @param known the option names `what` takes
 * @param what the call, for the message (`'streamAgent'`, `'qna.answer'`)
 */
export function checkOptionKeys(options: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new InvalidParameterError(
        key,
        `${what} has no option "${key}"; its options are ${known.join(', ')}.`,
      );
    }
  }
}

/** A call's own overrides; the client's values are checked once, when it is made. */
export function checkCallOptions(options: RequestOptions, operation: string): void {
  checkOptionKeys(options, requestOptionKeys, operation);
  if (options.maxRetries !== undefined) checkMaxRetries(options.maxRetries);
  if (options.timeout !== undefined) checkTimeout(options.timeout);
  if (options.maxResponseBytes !== undefined) checkMaxResponseBytes(options.maxResponseBytes);
  if (options.headers !== undefined) checkHeaderRecord(options.headers);
}

export function checkTimeout(timeout: unknown, name = 'timeout'): asserts timeout is number {
  if (!(typeof timeout === 'number' && timeout > 0)) {
    throw new InvalidParameterError(name, `${name} must be a positive number of milliseconds.`);
  }
}

export function checkMaxRetries(maxRetries: unknown): asserts maxRetries is number {
  if (!Number.isInteger(maxRetries) || (maxRetries as number) < 0) {
    throw new InvalidParameterError('maxRetries', 'maxRetries must be a non-negative integer.');
  }
}

export function checkMaxResponseBytes(value: unknown): asserts value is number {
  if (!(typeof value === 'number' && value > 0)) {
    throw new InvalidParameterError(
      'maxResponseBytes',
      'maxResponseBytes must be a positive number of bytes.',
    );
  }
}
