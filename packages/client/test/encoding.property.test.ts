import Dataworkz, { InvalidParameterError } from '@dataworkz/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
let dw: Dataworkz;
beforeAll(async () => {
  server = await startServer();
  dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
});
afterAll(() => server.close());

const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('.', '/', '\\', '?', '#', '%', '2', 'e', 'f', '&', '=', ';', ' ', '\n', 'a'),
  }),
  fc.constantFrom('.', '..', '../x', 'a/b?c', '%2e%2e', '..%2f', '/', '?', '#'),
);

// 2,000 round trips per property over loopback: a few seconds on a quiet machine, but ten times that on
// two shared cores running every suite at once, past the default 20 s.
const PROPERTY_TIMEOUT_MS = 120_000;

describe('encoding properties (over the wire)', () => {
  it(
    'a path parameter never escapes its segment',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostile, async (id) => {
          const before = server.requests.length;
          const error = await dw.qna.filters(id).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (error !== undefined) {
            expect(error).toBeInstanceOf(InvalidParameterError);
            expect(server.requests.length).toBe(before);
            return;
          }
          const path = server.requests.at(-1)?.path ?? '';
          const match = /^\/api\/qna\/v1\/systems\/([^/]+)\/filters$/.exec(path);
          expect(match, path).not.toBeNull();
          expect(decodeURIComponent(match?.[1] ?? '')).toBe(id);
        }),
        { numRuns: 2000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'a query value arrives exactly as given, under its own name',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostile, hostile, async (query, llmProviderId) => {
          const error = await dw.qna.search('s', { query, llmProviderId }).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (error !== undefined) {
            expect(error).toBeInstanceOf(InvalidParameterError);
            return;
          }
          const params = new URLSearchParams(server.requests.at(-1)?.query);
          expect([...params.keys()]).toEqual(['query', 'llmProviderId']);
          expect(params.get('query')).toBe(query);
          expect(params.get('llmProviderId')).toBe(llmProviderId);
        }),
        { numRuns: 2000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
