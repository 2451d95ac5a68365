import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { rawRequest } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaks } from '../../redaction/test/support/credential-table.js';

// The request record served over HTTP holds no credential: not the key the console's proxy added for
// the local page, not another caller's, not one sent twice. The process that started the emulator
// keeps what was sent in `emu.requests`.

const primary = 'dwk_primary-K3y/for+the_console';
const second = 'dwk_second-key-of-a-peer-0042';
const repeated = ['first-repeated-x-api-key-1', 'second-repeated-x-api-key-2'];
const cookie = 'cookie-value-of-a-caller-77';

let emu: Emulator;
let host: string;

/** A request as sent: each header as written, the one sent twice as a list, `host` the caller's. */
const raw = (method: string, path: string, headers: Record<string, string | string[]>) =>
  rawRequest(emu.url, path, { method, headers });

const page = () => ({ host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });

beforeAll(async () => {
  emu = await startEmulator({ console: true, apiKeys: [primary, second] });
  host = new URL(emu.url).host;
  // The local page, through the console's proxy: the emulator adds its primary key.
  expect((await raw('GET', '/console/api/proxy/api/qna/v1/systems', page())).status).toBe(200);
  // A program with the second key, a header sent twice, a cookie, a secret in the query.
  const sent = await raw('GET', `/api/qna/v1/systems?access_token=${repeated[0]}&keyword=k`, {
    host,
    authorization: `SSWS ${second}`,
    'x-api-key': repeated,
    cookie: `sid=${cookie}`,
  });
  expect(sent.status).toBe(200);
});

afterAll(() => emu.close());

/** Which of the credentials (in any form the table knows) a text still holds. */
function credentialsIn(text: string): string[] {
  return [primary, second, ...repeated, cookie].filter((secret) => leaks(text, secret).length > 0);
}

describe('the request record', () => {
  it('served at /_emulator/requests to a peer with any valid key, holds no credential', async () => {
    const res = await raw('GET', '/_emulator/requests', { host, authorization: `SSWS ${second}` });
    expect(res.status).toBe(200);
    const requests = JSON.parse(res.text) as { path: string; headers: Record<string, string> }[];
    expect(requests).toHaveLength(2);
    expect(credentialsIn(res.text)).toEqual([]);
    // What kind of credential each request had still shows, and what was public.
    expect(requests[0]?.headers.authorization).toBe('SSWS [redacted]');
    expect(requests[1]?.headers['x-api-key']).toBe('[redacted], [redacted]');
    expect(res.text).toContain('keyword=k');
  });

  it('served to the console page, likewise', async () => {
    const res = await raw('GET', '/console/api/requests', page());
    expect(res.status).toBe(200);
    expect(credentialsIn(res.text)).toEqual([]);
  });

  it('in the console log, knows both values of a repeated header', async () => {
    const list = JSON.parse((await raw('GET', '/console/api/log', page())).text) as {
      entries: { id: number }[];
    };
    for (const { id } of list.entries) {
      const entry = await raw('GET', `/console/api/log/${id}`, page());
      expect(credentialsIn(entry.text)).toEqual([]);
    }
  });

  it("keeps what was sent in emu.requests, in the emulator's own process", () => {
    expect(emu.requests[0]?.headers.authorization).toBe(`SSWS ${primary}`);
    expect(emu.requests[1]?.headers['x-api-key']).toBe(repeated.join(', '));
  });
});
