// A fresh process with the built package: prints each step and whether @a2a-js/sdk and the search index
// (MiniSearch) were loaded by then.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on('message', (what) => {
  loaded.add(what);
});
const now = () => ({ sdkLoaded: loaded.has('sdk'), indexLoaded: loaded.has('index') });
port1.unref();
register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const { startEmulator, seed } = await import('@dataworkz/emulator');
const emulator = await startEmulator();
const call = async (path, init = {}) => {
  const response = await fetch(`${emulator.url}${path}`, {
    ...init,
    headers: { authorization: `SSWS ${emulator.apiKey}`, 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
};
const steps = [];
await call('/api/qna/v1/systems');
await call('/api/agents/v1/');
await call(`/api/agents/v1/a2a/${seed.agents.policyHelper.agentId}/.well-known/agent-card.json`);
steps.push({ step: 'lists and a card', ...now() });
const sent = await call(`/api/agents/v1/a2a/${seed.agents.policyHelper.agentId}/stream`, {
  method: 'POST',
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: 'm-1',
        parts: [{ kind: 'text', text: 'Can I return a lamp?' }],
      },
    },
  }),
});
steps.push({ step: 'message/send', ...now(), kind: sent.result?.kind, state: sent.result?.status?.state });
const search = await call(
  `/api/qna/v1/systems/${seed.systems.supportKb.systemId}/search?query=${encodeURIComponent('refund')}`,
);
steps.push({ step: 'search', ...now(), results: search.searchResultsList.length > 0 });
await emulator.close();
process.stdout.write(JSON.stringify(steps));
