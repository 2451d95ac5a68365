import { inspect } from 'node:util';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  Dataworkz,
  errorFromResponse,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '@dataworkz/client';
import { describe, expect, it } from 'vitest';

const cases: Array<[number, new (...args: never[]) => APIError]> = [
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
  [500, InternalServerError],
  [502, InternalServerError],
  [503, InternalServerError],
  [504, InternalServerError],
];

describe('APIError.generate', () => {
  it.each(cases)('maps %i to its class', (status, ErrorClass) => {
    const error = APIError.generate(status, { message: 'nope' }, new Headers({ 'x-request-id': 'req-1' }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.status).toBe(status);
    expect(error.requestId).toBe('req-1');
    expect(error.message).toBe(`${status} nope`);
    expect(error.body).toEqual({ message: 'nope' });
  });

  it('keeps other statuses as a plain APIError', () => {
    const error = APIError.generate(418, 'teapot', new Headers());
    expect(error.constructor).toBe(APIError);
    expect(error.message).toBe('418 teapot');
    expect(error.requestId).toBeUndefined();
  });

  it('describes a JSON-RPC error body by its nested message', () => {
    const body = { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request' } };
    expect(APIError.generate(400, body, new Headers()).message).toBe('400 Invalid request');
  });

  it('describes a body-less error by its status', () => {
    expect(APIError.generate(500, '', new Headers()).message).toBe('500 status code (no body)');
  });

  it('drops cookies and credentials from the headers it keeps', () => {
    const headers = new Headers({ 'set-cookie': 'session=s3cr3t', 'content-type': 'application/json' });
    const error = APIError.generate(401, {}, headers);
    expect(error.headers.get('set-cookie')).toBeNull();
    expect(error.headers.get('content-type')).toBe('application/json');
    expect(inspect(error, { depth: 5 })).not.toContain('s3cr3t');
  });
});

describe('errorFromResponse', () => {
  it('reads and parses a JSON body', async () => {
    const response = new Response(JSON.stringify({ status: 404, error: 'Not Found', message: 'No agent' }), {
      status: 404,
      headers: { 'content-type': 'application/json', 'request-id': 'abc' },
    });
    const error = await errorFromResponse(response);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toEqual({ status: 404, error: 'Not Found', message: 'No agent' });
    expect(error.requestId).toBe('abc');
    expect(error.message).toBe('404 No agent');
  });

  it('keeps a non-JSON body as text', async () => {
    const error = await errorFromResponse(new Response('<html>bad gateway</html>', { status: 502 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe('<html>bad gateway</html>');
  });

  it('scrubs a secret the server echoed, in the body, the message and the headers', async () => {
    const dw = new Dataworkz({ baseUrl: 'http://127.0.0.1:1', apiKey: 'key-12345678' });
    const response = new Response(JSON.stringify({ message: 'bad key SSWS key-12345678' }), {
      status: 401,
      headers: { 'x-echo': 'SSWS key-12345678' },
    });
    const error = await errorFromResponse(response, dw.redact);
    expect(error.message).toBe('401 bad key SSWS [redacted]');
    expect(error.body).toEqual({ message: 'bad key SSWS [redacted]' });
    expect(error.headers.get('x-echo')).toBe('SSWS [redacted]');
  });
});
