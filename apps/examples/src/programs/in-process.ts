// Run the emulator inside this program, with no server and no port: `createEmulator` answers requests
// through its `fetch`, which the client takes as its own. The same code runs in Node, Bun, Deno, edge
// runtimes and browsers, which makes it the quickest way to test code that calls the service.
// (This program ignores DATAWORKZ_BASE_URL: it always talks to its own emulator.)
import { streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { createEmulator, seed } from '@dataworkz/emulator';
import { excerpt, field, heading } from '../support/output.js';

const emu = createEmulator({ apiKeys: ['in-process-key'] });
// Any origin will do: nothing is resolved or connected to; links in answers use it.
const dw = new Dataworkz({ baseUrl: 'https://dw.example', apiKey: emu.apiKey, fetch: emu.fetch });

heading('Search, answered in process');
const { systemId } = seed.systems.productDocs;
const results = await dw.qna.search(systemId, { query: 'reset password' });
field('results', String(results.searchResultsList?.length ?? 0));
field('top result', excerpt(results.searchResultsList?.[0]?.data ?? '', 120));

heading('An agent stream, answered in process');
const answer = await streamAgent(dw, seed.agents.orderStatus.agentId, {
  text: 'Where is order 1001?',
}).finalAnswer();
field('state', answer.state);
field('answer', excerpt(answer.answer, 200));

// The requests it answered, as a test would check them.
field('requests seen', emu.requests.map((request) => `${request.method} ${request.path}`).join(', '));
await emu.close();
