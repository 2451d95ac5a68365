import { Worker } from 'node:worker_threads';

/** What the encoder's thread is sent and answers (its first message says whether the model loaded). */
type Reply =
  | { readonly ready: true }
  | { readonly failed: string }
  | { readonly id: number; readonly vectors: number[][] }
  | { readonly id: number; readonly error: string };

/**
 * The thread's script, evaluated: loads the model from the packages' resolved paths, then embeds each
 * batch it is sent. A script rather than a file of the package, so the same code runs from the sources
 * and from the bundle. It names nothing global but `process`: a worker takes its parent's flags, so the
 * script runs as CommonJS or, under `--input-type=module`, as a module.
 */
const script = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { closeSync, existsSync, openSync, readFileSync, readSync, statSync } = process.getBuiltinModule('node:fs');
const { dirname, join } = process.getBuiltinModule('node:path');
const load = process.getBuiltinModule('node:module').createRequire(workerData.embeddings);
const text = (error) => (error && error.message) || String(error);

// The model package's own source reads each weight file into a Buffer and copies them all into one
// ArrayBuffer: ~27 MB copied and left as garbage, ~8 % of the first question's wait. When its folder
// holds the files that source reads, they are read here straight into the one buffer the model takes.
async function fromFiles(folder) {
  const { loadGraphModel, ready } = load('@energetic-ai/core');
  const backend = ready();
  const { weightsManifest, ...artifacts } = JSON.parse(readFileSync(join(folder, 'model.json'), 'utf8'));
  const files = weightsManifest.flatMap((group) => group.paths.map((path) => join(folder, path)));
  const sizes = files.map((file) => statSync(file).size);
  const weights = new Uint8Array(sizes.reduce((total, size) => total + size, 0));
  let offset = 0;
  files.forEach((file, i) => {
    const fd = openSync(file, 'r');
    try {
      for (let read = 0; read < sizes[i]; ) {
        const got = readSync(fd, weights, offset + read, sizes[i] - read, read);
        if (got === 0) throw new Error(file + ' ended after ' + read + ' of ' + sizes[i] + ' bytes');
        read += got;
      }
    } finally {
      closeSync(fd);
    }
    offset += sizes[i];
  });
  const vocabulary = JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8'));
  const weightSpecs = weightsManifest.flatMap((group) => group.weights);
  await backend;
  const model = await loadGraphModel({ load: async () => ({ ...artifacts, weightSpecs, weightData: weights.buffer }) });
  return { model, vocabulary };
}

const { initModel } = load(workerData.embeddings);
const folder = dirname(workerData.model);
const source = existsSync(join(folder, 'model.json')) ? () => fromFiles(folder) : load(workerData.model).modelSource;
initModel(source).then(
  (model) => {
    parentPort.on('message', ({ id, texts }) => {
      model.embed(texts).then(
        (vectors) => parentPort.postMessage({ id, vectors }),
        (error) => parentPort.postMessage({ id, error: text(error) }),
      );
    });
    parentPort.postMessage({ ready: true });
  },
  (error) => parentPort.postMessage({ failed: text(error) }),
);
`;

/** Where the encoder's two packages were resolved, in the thread that loads them. */
export interface EncoderPackages {
  readonly embeddings: string;
  readonly model: string;
}

/** Embeds texts in the thread; each call waits for the model to load first. */
export interface EncoderThread {
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * Starts a worker thread that loads the encoder (TensorFlow.js on WebAssembly: ~0.5 CPU-s) and embeds
 * for this one. Loading there leaves the emulator's own thread free: it keeps answering other requests,
 * and on a machine with a second core the first question's index is built while the model loads.
 * The thread keeps the process alive only while it loads or embeds; idle, it lets the process exit.
 * Resolves once the model is loaded; rejects with the thread's reason when it cannot load.
 */
export function startEncoderThread(packages: EncoderPackages): Promise<EncoderThread> {
  const worker = new Worker(script, { eval: true, workerData: packages });
  const pending = new Map<number, { resolve(vectors: number[][]): void; reject(error: Error): void }>();
  let nextId = 0;
  let stopped: Error | undefined;

  return new Promise((resolveReady, rejectReady) => {
    const stop = (error: Error) => {
      stopped ??= error;
      rejectReady(stopped);
      for (const request of pending.values()) request.reject(stopped);
      pending.clear();
    };
    worker.on('error', (error) => stop(new Error(`The sentence encoder's thread failed: ${error.message}`)));
    worker.on('exit', (code) => stop(new Error(`The sentence encoder's thread exited (code ${code})`)));
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        worker.unref();
        resolveReady({ embed });
      } else if ('failed' in reply) {
        stop(new Error(`The sentence encoder could not be loaded: ${reply.failed}`));
        void worker.terminate();
      } else {
        const request = pending.get(reply.id);
        pending.delete(reply.id);
        if (pending.size === 0) worker.unref();
        if ('error' in reply) request?.reject(new Error(`The sentence encoder failed: ${reply.error}`));
        else request?.resolve(reply.vectors);
      }
    });

    function embed(texts: string[]): Promise<number[][]> {
      if (stopped) return Promise.reject(stopped);
      if (texts.length === 0) return Promise.resolve([]);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, texts });
      });
    }
  });
}
