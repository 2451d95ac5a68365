import { inspect } from 'node:util';
import Dataworkz, { type APIError, MalformedResponseError } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handler, json, startServer, type TestServer } from './support/server.js';

const KiB = 1024;
// Characters that never occur in the padding, so any fragment of the key found is a leak.
const apiKey = 'QZ7-leak-probe-9XK4-WJ2M-8HTV-5RPN';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function client(options: ConstructorParameters<typeof Dataworkz>[0] = {}): Dataworkz {
  return new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0, ...options });
}

/** Every piece of `secret` at least 6 characters long that `text` contains. */
function fragmentsOf(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 6 <= secret.length; start++) {
    const piece = secret.slice(start, start + 6);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

function everything(error: unknown): string {
  return `${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}\n${(error as Error).stack}`;
}

async function failing(handler: Handler, dw = client()): Promise<APIError> {
  server.reply(handler);
  return (await dw.qna.list().catch((e: unknown) => e)) as APIError;
}

describe('a credential the server echoes', () => {
  it('in a response header is scrubbed from the error headers and inspect output', async () => {
    const error = await failing(
      json(400, { message: 'no' }, { 'x-echo': `SSWS ${apiKey}`, 'x-echo-authorization': `SSWS ${apiKey}` }),
    );
    expect(error.headers.get('x-echo')).toBe('SSWS [redacted]');
    // A secret-named header is not kept at all.
    expect(error.headers.get('x-echo-authorization')).toBeNull();
    expect(fragmentsOf(apiKey, everything(error))).toEqual([]);
  });

  it.each([64 * KiB - 12, 64 * KiB - 24, 64 * KiB])(
    'straddling the 64 KiB cut of an error body (at %i) leaves no fragment',
    async (at) => {
      const text = `${'.'.repeat(at - 5)}SSWS ${apiKey}${'.'.repeat(100 * KiB)}`;
      const error = await failing((_request, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(text);
      });
      expect((error.body as string).length).toBeLessThanOrEqual(64 * KiB);
      expect(fragmentsOf(apiKey, everything(error))).toEqual([]);
    },
  );

  it('straddling the 300-character cut of a message leaves no fragment', async () => {
    const error = await failing((_request, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`${'.'.repeat(288)}${apiKey}${'.'.repeat(50)}`);
    });
    expect(error.message).toContain('[redacted]');
    expect(fragmentsOf(apiKey, everything(error))).toEqual([]);
  });

  it('straddling the 1,000-character excerpt of a malformed body leaves no fragment', async () => {
    const error = await failing((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`<html>${'.'.repeat(982)}${apiKey}${'.'.repeat(50)}`);
    });
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(fragmentsOf(apiKey, everything(error))).toEqual([]);
  });

  it('JSON-escaped, with quotes and backslashes in the key, is scrubbed', async () => {
    const quoted = 'k"ey\\with-quote-and-backslash-9Q';
    const error = await failing(
      (request, res) => {
        const echoed = request.headers.authorization ?? '';
        res.writeHead(400, { 'content-type': 'text/plain' });
        // The key as it reads inside JSON text, not parsed back: the raw text is what the error keeps.
        res.end(`bad ${JSON.stringify(echoed)} <`);
      },
      client({ apiKey: quoted }),
    );
    expect(everything(error)).not.toContain('k\\"ey');
    expect(everything(error)).not.toContain('with-quote-and-backslash');
  });

  it('is scrubbed with the exact token each attempt sent, however many tokens were minted since', async () => {
    let minted = 0;
    const tokens: string[] = [];
    const dw = client({
      apiKey: undefined,
      token: () => {
        const token = `minted-token-${String(++minted).padStart(4, '0')}-${'Z'.repeat(12)}`;
        tokens.push(token);
        return token;
      },
    });
    const echo: Handler = (request, res, raw) => {
      // Answer late, so that every call has minted its token before the first error is built.
      const reply = json(400, { message: `rejected ${request.headers.authorization}` });
      setTimeout(() => reply(request, res, raw), 50);
    };
    server.reply(...Array.from({ length: 8 }, () => echo));
    const errors = await Promise.all(Array.from({ length: 8 }, () => dw.qna.list().catch((e: unknown) => e)));
    expect(tokens).toHaveLength(8);
    for (const error of errors) {
      for (const token of tokens) expect(everything(error)).not.toContain(token);
    }
  });
});
