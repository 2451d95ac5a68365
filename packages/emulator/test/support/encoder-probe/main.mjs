// A fresh process with the built package: prints each step and whether the sentence encoder's package
// was loaded by then (it is CommonJS, required by the emulator: it then sits in the require cache).
// `warm`: starts with warmEncoder and waits for the encoder before any question.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';

const { cache } = createRequire(import.meta.url);
const isEncoderLoaded = () => Object.keys(cache).some((path) => path.includes('@energetic-ai/embeddings'));

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
steps.push({ step: 'list', encoderLoaded: isEncoderLoaded() });
const details = await get(`/api/qna/v1/systems/${kb}`);
steps.push({ step: 'details', encoderLoaded: isEncoderLoaded(), dimensions: details.dimensions });
if (warm) {
  while (!isEncoderLoaded()) await sleep(10);
  steps.push({ step: 'warmed', encoderLoaded: isEncoderLoaded() });
}
const search = await get(
  `/api/qna/v1/systems/${kb}/search?query=${encodeURIComponent('how do I get my money back')}`,
);
steps.push({ step: 'search', encoderLoaded: isEncoderLoaded(), first: search.searchResultsList[0]?.data });
await emulator.close();
process.stdout.write(JSON.stringify(steps));
