// Runs the site's snippets in a worker: the emulator inside it, the globals a snippet reads as a Node
// program would (`process.env`, `fetch`), and each snippet as a function whose console is the page's
// output. A worker is not a page: the client accepts an API key there, as on a server, and a long
// run never blocks the page.
import type { InProcessEmulator } from '@dataworkz/emulator';
import { show } from './show';

type Snippet = { default: (console: Console) => Promise<void> };
const snippets = import.meta.glob<Snippet>('../../.snippets/run/*.ts');

/** Requests to this origin go to the emulator; every other request goes out as usual. */
const IN_PAGE_BASE_URL = 'https://emulator.dataworkz.test';

export type FromWorker =
  | { run: number; kind: 'log' | 'error'; text: string }
  | { run: number; kind: 'started' }
  | { run: number; kind: 'done' | 'failed'; text?: string };

let started: Promise<InProcessEmulator> | undefined;

async function startEmulator(): Promise<InProcessEmulator> {
  const { createEmulator } = await import('@dataworkz/emulator');
  const emulator = createEmulator();
  await emulator.ready;
  const outside = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith(IN_PAGE_BASE_URL) ? emulator.fetch(input, init) : outside(input, init);
  };
  // The snippets construct `new Dataworkz()`, which reads these two, as on Node.
  const scope = globalThis as { process?: { env: Record<string, string | undefined> } };
  scope.process ??= { env: {} };
  scope.process.env.DATAWORKZ_BASE_URL = IN_PAGE_BASE_URL;
  scope.process.env.DATAWORKZ_API_KEY = emulator.apiKey;
  return emulator;
}

async function runSnippet(run: number, id: string): Promise<void> {
  const post = (message: FromWorker) => postMessage(message);
  const print =
    (kind: 'log' | 'error') =>
    (...args: unknown[]) =>
      post({ run, kind, text: args.map(show).join(' ') });
  const workerConsole = {
    ...console,
    log: print('log'),
    info: print('log'),
    warn: print('error'),
    error: print('error'),
  };
  try {
    started ??= startEmulator();
    await started;
    const load = snippets[`../../.snippets/run/${id}.ts`];
    if (load === undefined) throw new Error(`No runnable snippet ${id}`);
    const snippet = (await load()).default;
    post({ run, kind: 'started' });
    await snippet(workerConsole);
    post({ run, kind: 'done' });
  } catch (error) {
    post({ run, kind: 'failed', text: show(error) });
  }
}

addEventListener('message', (event: MessageEvent<{ run: number; id: string }>) => {
  void runSnippet(event.data.run, event.data.id);
});
