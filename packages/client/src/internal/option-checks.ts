import { InvalidParameterError } from '../core/errors.js';
import { checkHeaderRecord } from '../core/params.js';
import type { RequestOptions } from '../core/request-options.js';

/** A call's own overrides; the client's values are checked once, when it is made. */
export function checkCallOptions(options: RequestOptions): void {
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
