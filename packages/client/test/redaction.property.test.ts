import { inspect } from 'node:util';
import Dataworkz from '@dataworkz/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, around, caseArb, found, SEED } from '../../redaction/test/support/credential-space.js';
import { startServer, type TestServer } from './support/server.js';

// The client's errors over the space of credential forms and places the emulator's surfaces are
// proven over: a server on loopback answers an error with the key the client sent (in one of its
// forms) and a value under a secret name, in one place of its response; the APIError holds neither.

const RUNS = Number(process.env.REDACTION_PROPERTY_RUNS ?? 60);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("the client's errors hold no form of the key it sent", () => {
  it(`over ${RUNS} answers (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        server.reply((_request, res) => answer(c, res, 400));
        const dw = new Dataworkz({ baseUrl: server.url, apiKey: c.key, maxRetries: 0 });
        const error = await dw.qna.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        const shown = `${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}\n${(error as Error).stack}`;
        expect(found(shown, c), `${JSON.stringify(c)}\n${around(shown, c)}`).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
