import { Dataworkz } from '@dataworkz/client';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { createDataworkzMcpServer, type HttpServer, startHttpServer } from '@dataworkz/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const apiKey = 'mcp-access-key';
let emu: Emulator;
let server: HttpServer;

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(headers: Record<string, string>): Promise<Response> {
  return fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: initialize,
  });
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  const dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  server = await startHttpServer({
    createServer: () => createDataworkzMcpServer({ dw }),
    allowedOrigins: ['https://console.example.com'],
  });
});
afterAll(async () => {
  await server.close();
  await emu.close();
});

describe('the Streamable HTTP transport', () => {
  it('listens on loopback by default, with a generated token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token.length).toBeGreaterThanOrEqual(40);
  });

  it('accepts a request with its token', async () => {
    const response = await post({ authorization: `Bearer ${server.token}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
    await response.body?.cancel();
  });

  it('refuses a request without its token, or with another one', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/bearer token/);
    expect((await post({ authorization: `Bearer ${server.token}x` })).status).toBe(401);
    // The Dataworkz credential is not the server's token.
    expect((await post({ authorization: `Bearer ${apiKey}` })).status).toBe(401);
    expect((await post({ authorization: `SSWS ${apiKey}` })).status).toBe(401);
  });

  it('refuses a request from a foreign Origin, even with the token', async () => {
    const response = await post({ authorization: `Bearer ${server.token}`, origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/Origin https:\/\/evil\.example is not allowed/);
    const allowed = await post({
      authorization: `Bearer ${server.token}`,
      origin: 'https://console.example.com',
    });
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
  });

  it('refuses a Host that is not a loopback name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: `rebound.example:${url.port}`,
            authorization: `Bearer ${server.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(initialize);
    });
    expect(status).toBe(403);
  });

  it('refuses the SDK client without the token, and serves it with the token', async () => {
    const without = new Client({ name: 'no-token', version: '1' });
    await expect(without.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow(
      /401|bearer|Unauthorized/i,
    );

    const withToken = new Client({ name: 'token', version: '1' });
    await withToken.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      }),
    );
    expect((await withToken.listTools()).tools.length).toBeGreaterThan(0);
    await withToken.close();
  });

  it('answers only at /mcp', async () => {
    const response = await fetch(new URL('/other', server.url), {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});

describe('sessions', () => {
  it('ends the least recently used session past maxSessions; its client gets 404', async () => {
    const limited = await startHttpServer({
      createServer: () => createDataworkzMcpServer({ dw: new Dataworkz({ baseUrl: emu.url, apiKey }) }),
      maxSessions: 2,
    });
    const connect = async () => {
      const client = new Client({ name: 'session', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(limited.url), {
          requestInit: { headers: { authorization: `Bearer ${limited.token}` } },
        }),
      );
      return client;
    };
    try {
      const first = await connect();
      const second = await connect();
      await first.listTools(); // the second is now the least recently used
      const third = await connect();
      await expect(second.listTools()).rejects.toThrow(/404|Unknown or ended session/);
      expect((await first.listTools()).tools.length).toBeGreaterThan(0);
      expect((await third.listTools()).tools.length).toBeGreaterThan(0);
      await Promise.all([first.close(), second.close(), third.close()]);
    } finally {
      await limited.close();
    }
  });
});

describe('a configured token', () => {
  it('is the one required', async () => {
    const configured = await startHttpServer({
      createServer: () => createDataworkzMcpServer({ dw: new Dataworkz({ baseUrl: emu.url, apiKey }) }),
      token: 'configured-token-0123456789',
    });
    try {
      const ok = await fetch(configured.url, {
        method: 'POST',
        headers: {
          authorization: 'Bearer configured-token-0123456789',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: initialize,
      });
      expect(ok.status).toBe(200);
      await ok.body?.cancel();
    } finally {
      await configured.close();
    }
  });
});
