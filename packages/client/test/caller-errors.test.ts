import Dataworkz, { type Logger } from '@dataworkz/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const bug = new TypeError('bug in the caller');

describe("the caller's own errors", () => {
  it('a throwing onResponse rejects with that error, once, without a retry', async () => {
    server.reply(json(200, { status: 'OK' }));
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const error = await dw.agents
      .respond(
        'a',
        { userText: 'u', llmProviderId: 'l' },
        {
          onResponse() {
            throw bug;
          },
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBe(bug);
    expect(server.requests).toHaveLength(1);
  });

  it.each(['debug', 'info'] as const)(
    'a logger whose %s throws rejects with that error, once',
    async (level) => {
      const throwing = () => {
        throw bug;
      };
      const logger: Logger = { error() {}, warn() {}, info() {}, debug() {}, [level]: throwing };
      // A 503 makes the info line (a retry) happen; the debug line happens on every exchange.
      server.reply(json(503, {}));
      const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', logLevel: level, logger });
      const error = await dw.qna.list().catch((e: unknown) => e);
      expect(error).toBe(bug);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('authorizedFetch passes a throwing logger through as it is, too', async () => {
    const logger: Logger = {
      error() {},
      warn() {},
      info() {},
      debug() {
        throw bug;
      },
    };
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', logLevel: 'debug', logger });
    await expect(dw.authorizedFetch(`${server.url}/x`)).rejects.toBe(bug);
    expect(server.requests).toHaveLength(1);
  });
});
