// A fresh process with the built package: prints each step and whether the sentence encoder was
// loaded by then. It loads in a worker thread of its own, given the paths of the encoder's packages:
// the probe wraps node:worker_threads' Worker (before the emulator is imported, so its import sees the
// wrapper) to see that thread start.
// `warm`: starts with warmEncoder and waits for the encoder before any question.
import module from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import workerThreads from 'node:worker_threads';

let encoderThreads = 0;
const { Worker } = workerThreads;
workerThreads.Worker = class extends Worker {
  constructor(script, options) {
    super(script, options);
    if (String(options?.workerData?.embeddings).includes('@energetic-ai/embeddings')) encoderThreads += 1;
  }
};
module.syncBuiltinESMExports();
const isEncoderLoaded = () => encoderThreads > 0;

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
