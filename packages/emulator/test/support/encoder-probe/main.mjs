// A fresh process with the built package: prints each step and whether the sentence encoder's package
// was loaded by then. `warm`: starts with warmEncoder and waits for the encoder before any question.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
let encoderLoaded = false;
const loaded = new Promise((resolve) => {
  port1.on('message', () => {
    encoderLoaded = true;
    resolve();
  });
});
port1.unref();
register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const warm = process.argv[2] === 'warm';
const { startEmulator, seed } = await import('@dataworkz/emulator');
const emulator = await startEmulator({ warmEncoder: warm });
const get = async (path) => {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { authorization: `SSWS ${emulator.apiKey}` },
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
};
const kb = seed.systems.supportKb.systemId;
const steps = [];
await get('/api/qna/v1/systems');
steps.push({ step: 'list', encoderLoaded });
const details = await get(`/api/qna/v1/systems/${kb}`);
steps.push({ step: 'details', encoderLoaded, dimensions: details.dimensions });
if (warm) {
  await loaded;
  steps.push({ step: 'warmed', encoderLoaded });
}
const search = await get(
  `/api/qna/v1/systems/${kb}/search?query=${encodeURIComponent('how do I get my money back')}`,
);
steps.push({ step: 'search', encoderLoaded, first: search.searchResultsList[0]?.data });
await emulator.close();
process.stdout.write(JSON.stringify(steps));
