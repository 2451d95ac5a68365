// The page's side of the Run buttons: one worker for the page, started on the first Run, shared by
// every button after it (so the emulator it holds keeps what earlier runs did, as a service would).
import type { FromWorker } from './snippet-worker';

let worker: Worker | undefined;
let nextRun = 0;
const listeners = new Map<number, (message: FromWorker) => void>();

function theWorker(): Worker {
  if (worker === undefined) {
    worker = new Worker(new URL('./snippet-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      listeners.get(event.data.run)?.(event.data);
    });
  }
  return worker;
}

/** Runs snippet `id`, handing each message (output lines, then `done` or `failed`) to `onMessage`. */
export function runSnippet(id: string, onMessage: (message: FromWorker) => void): Promise<void> {
  const run = nextRun++;
  return new Promise((resolve) => {
    listeners.set(run, (message) => {
      onMessage(message);
      if (message.kind === 'done' || message.kind === 'failed') {
        listeners.delete(run);
        resolve();
      }
    });
    theWorker().postMessage({ run, id });
  });
}
