import * as a2aExports from '@dataworkz/a2a';
import * as clientExports from '@dataworkz/client';
import { ContextValuesError } from '@dataworkz/context-values';
import { describe, expect, it } from 'vitest';

// Looked up by name, as a user's import would.
const a2a: Record<string, unknown> = { ...a2aExports };
const client: Record<string, unknown> = { ...clientExports };

// Every error a call of @dataworkz/a2a can reject with.
const fromClient = [
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'APIError',
  'APIUserAbortError',
  'AuthenticationError',
  'BadRequestError',
  'ConflictError',
  'DataworkzError',
  'InternalServerError',
  'InvalidParameterError',
  'MalformedResponseError',
  'NotFoundError',
  'PermissionDeniedError',
  'RateLimitError',
  'RedirectError',
  'ResponseTooLargeError',
  'UnprocessableEntityError',
] as const;

const own = [
  'IncompleteStreamError',
  'JsonRpcError',
  'NoLlmError',
  'NotAStreamError',
  'StreamEventTooLargeError',
  'StreamIdleTimeoutError',
  'StreamProtocolError',
  'TaskFailedError',
] as const;

describe('one import per need', () => {
  it.each(fromClient)('%s is importable from @dataworkz/a2a, the same class as the client’s', (name) => {
    expect(a2a[name]).toBe(client[name]);
  });

  it('ContextValuesError is importable from @dataworkz/a2a too', () => {
    expect(a2aExports.ContextValuesError).toBe(ContextValuesError);
  });

  it.each(own)('%s is a DataworkzError', (name) => {
    expect((a2a[name] as { prototype: unknown }).prototype).toBeInstanceOf(clientExports.DataworkzError);
  });

  it('every error the streaming guide lists is exported', async () => {
    const { readFile } = await import('node:fs/promises');
    const guide = await readFile(
      new URL('../../../apps/docs/guides/agents/streaming.md', import.meta.url),
      'utf8',
    );
    const errors = guide.slice(
      guide.indexOf('## Time-outs, aborts and errors'),
      guide.indexOf('## As a web stream'),
    );
    const named = [...errors.matchAll(/`([A-Z][A-Za-z]+Error)`/g)].map((match) => match[1] as string);
    expect(named.length).toBeGreaterThan(10);
    for (const name of named) expect(a2a, name).toHaveProperty(name);
  });
});
