import { inspect } from 'node:util';
import Dataworkz, { type APIError } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialForms,
  hidden,
  leaks,
  nameLeaks,
  publicNames,
  secretBody,
  secretHeaders,
  secretQuery,
  TABLE_KEY,
  visible,
} from '../../redaction/test/support/credential-table.js';
import { startServer, type TestServer } from './support/server.js';

// The client's surfaces, driven by the SDK's one table of secret names and credential forms: its
// debug log and the errors it raises, against a server on loopback that echoes every credential.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A JSON text with every secret member and every form of the key, escapes written as escapes. */
function echoJson(): string {
  const forms = credentialForms()
    .map(({ form, text }) => `${JSON.stringify(form)}:"${text}"`)
    .join(',');
  return `{"message":"refused","forms":{${forms}},"body":${JSON.stringify(secretBody())}}`;
}

function tableQuery(): string {
  const pairs = [
    ...secretQuery.map((name) => [name, hidden(name)]),
    ...publicNames.map((name) => [name, visible(name)]),
  ];
  return new URLSearchParams(pairs).toString();
}

function client(lines: string[]): Dataworkz {
  const headers: Record<string, string> = {};
  for (const name of secretHeaders) headers[name] = hidden(name);
  const record = (message: string, ...data: unknown[]) => lines.push(`${message} ${JSON.stringify(data)}`);
  return new Dataworkz({
    // The key in the base URL's path too: a log line must not show it there either.
    baseUrl: `${server.url}/t/${TABLE_KEY}`,
    apiKey: TABLE_KEY,
    headers,
    maxRetries: 0,
    logLevel: 'debug',
    logger: { debug: record, info: record, warn: record, error: record },
  });
}

describe('the client, by the table of secret names and credential forms', () => {
  it('writes no form of the key and no secret-named value to its debug log', async () => {
    const lines: string[] = [];
    const dw = client(lines);
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await (
      await dw.authorizedFetch(`${server.url}/t/${TABLE_KEY}/api/qna/v1/systems?${tableQuery()}`)
    ).text();
    const log = lines.join('\n');
    expect(log).toContain('GET ');
    expect(leaks(log)).toEqual([]);
    expect(nameLeaks(log).shown).toEqual([]);
    expect(log).toContain(visible('keyword'));
  });

  it('raises errors with no form of the key and no secret-named value in them', async () => {
    const lines: string[] = [];
    const dw = client(lines);
    server.reply((_request, res) => {
      res.writeHead(400, `Unauthorized key ${TABLE_KEY}`, {
        'content-type': 'application/json',
        'x-echo': btoa(`SSWS ${TABLE_KEY}`),
        'set-cookie2': hidden('Set-Cookie2'),
      });
      res.end(echoJson());
    });
    const error = (await dw.qna.list().catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(400);
    const everything = `${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}\n${error.stack}\n${lines.join('\n')}`;
    expect(leaks(everything)).toEqual([]);
    expect(nameLeaks(everything).shown).toEqual([]);
    expect(everything).toContain(visible('maxTokens'));
  });
});

describe('error bodies in other forms', () => {
  /** The key with its first character percent-encoded. */
  const partly = `%${TABLE_KEY.charCodeAt(0).toString(16)}${TABLE_KEY.slice(1)}`;

  async function errorOf(type: string, body: Uint8Array | string): Promise<APIError> {
    const dw = client([]);
    server.reply((_request, res) => {
      res.writeHead(400, { 'content-type': type });
      res.end(body);
    });
    return (await dw.qna.list().catch((error: unknown) => error)) as APIError;
  }

  it('keeps no key percent-encoded in part', async () => {
    const error = await errorOf('text/plain', `no system /api/qna/v1/systems/${partly} for ${partly}`);
    expect(error.status).toBe(400);
    expect(leaks(inspect(error, { depth: 8 }))).toEqual([]);
  });

  it.each(['utf-16le', 'UTF-16BE', 'utf-16'])('reads a body in %s by its charset', async (charset) => {
    const json = JSON.stringify({ message: 'refused', echo: TABLE_KEY, apiKeys: [hidden('apiKeys')] });
    const le = Buffer.from(json, 'utf16le');
    const bytes = charset === 'UTF-16BE' ? le.swap16() : le;
    const error = await errorOf(`application/json; charset=${charset}`, bytes);
    const shown = inspect(error, { depth: 8 });
    expect(leaks(shown)).toEqual([]);
    expect(shown).not.toContain(hidden('apiKeys'));
    expect((error.body as { message?: string } | undefined)?.message).toBe('refused');
  });

  it('shows no UTF-16 body labelled otherwise, nor one in a charset it cannot read', async () => {
    const json = JSON.stringify({ message: 'refused', password: hidden('password') });
    for (const [type, body] of [
      ['application/json', Buffer.from(json, 'utf16le')],
      ['application/json; charset=x-unknown-42', Buffer.from(json)],
    ] as const) {
      const error = await errorOf(type, body);
      const shown = inspect(error, { depth: 8 });
      expect(shown).not.toContain(hidden('password'));
      expect(shown).toContain('not shown');
    }
  });
});
