import { inspect } from 'node:util';
import { Dataworkz, DataworkzError } from '@dataworkz/client';
import { describe, expect, it } from 'vitest';

const KEY = 'dwk-REDACT-ME-7f3a91c2';

class EchoError extends DataworkzError {
  readonly data: unknown;
  readonly headers = new Headers({ 'x-request-id': 'r-1' });
  constructor(message: string, data: unknown, cause?: unknown) {
    super(message, { cause });
    this.data = data;
  }
}

describe('dw.redact', () => {
  it('removes the credential from message, stack, data fields and causes, keeping class instances', () => {
    const dw = new Dataworkz({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY });
    const cause = new Error(`inner ${KEY}`);
    const error = new EchoError(`outer ${KEY}`, { echoed: [KEY, `Bearer "${KEY}"`] }, cause);
    expect(dw.redact(error)).toBe(error);
    const views = [error.message, error.stack, JSON.stringify(error), inspect(error, { showHidden: true })];
    for (const view of views) expect(view).not.toContain(KEY);
    expect(error.message).toBe('outer [redacted]');
    expect(error.data).toEqual({ echoed: ['[redacted]', 'Bearer "[redacted]"'] });
    expect(cause.message).toBe('inner [redacted]');
    expect(error.headers).toBeInstanceOf(Headers);
    expect(error.headers.get('x-request-id')).toBe('r-1');
  });

  it('leaves an error without the credential untouched', () => {
    const dw = new Dataworkz({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY });
    const data = { ok: true };
    const error = new EchoError('nothing secret here', data);
    dw.redact(error);
    expect(error.message).toBe('nothing secret here');
    expect(error.data).toBe(data);
  });
});
