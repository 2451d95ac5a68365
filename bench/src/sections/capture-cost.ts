import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Measurement } from '../measurement.js';

/**
 * The recorder's capture and redaction of one large exchange, timed alone: a 1 MiB JSON answer read
 * into a cassette entry (its media type and charset read, the body redacted whole by the one policy,
 * every header and the URL too). It runs after the caller has the answer, off its path, so the
 * per-call figures above cannot show it. The step is internal to the emulator (its package bundles it
 * out of reach): its sources are bundled here as the package's build bundles them, for Node.
 */

interface BodyCaptureLike {
  push(chunk: Buffer): void;
}
interface CaptureModules {
  BodyCapture: new (maxBytes: number, hashFromStart: boolean) => BodyCaptureLike;
  harEntry(
    exchange: unknown,
    options: { secrets: string[]; maxBytes: number; keepUnreadable: boolean },
  ): {
    entry: { response: { content: { text?: string } } };
  };
}

const mib = 1024 * 1024;
const key = 'dwk_bench-capture-K3y/0123456789';

async function captureModules(): Promise<CaptureModules> {
  const record = fileURLToPath(new URL('../../../packages/emulator/src/node/record/', import.meta.url));
  const bundled = await build({
    stdin: {
      contents: `export { harEntry } from './har-entry.ts'; export { BodyCapture } from './recorded-body.ts';`,
      resolveDir: record,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    conditions: ['@dataworkz/source', 'node'],
    logLevel: 'silent',
  });
  const dir = await mkdtemp(join(tmpdir(), 'dwz-bench-capture-'));
  try {
    const file = join(dir, 'capture.mjs');
    await writeFile(file, bundled.outputFiles[0]?.contents ?? '');
    return (await import(pathToFileURL(file).href)) as CaptureModules;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A JSON answer of 1 MiB as a QnA search returns them: passages, scores, a few secret members and the key. */
function largeJson(): Buffer {
  const items: unknown[] = [];
  let size = 0;
  for (let i = 0; size < mib - 600; i++) {
    const item = {
      id: `passage-${i}`,
      score: 0.5 + (i % 50) / 100,
      text: `Passage ${i} of the product guide: the order ships within two days, tracked end to end.`,
      metadata: { source: `doc-${i % 40}.pdf`, page: i % 300, ...(i % 500 === 0 ? { apiToken: key } : {}) },
    };
    items.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return Buffer.from(JSON.stringify({ results: items, echo: key }).slice(0, mib + 2048));
}

export async function measureCaptureCost(section: string, rounds: number): Promise<Measurement[]> {
  const { harEntry, BodyCapture } = await captureModules();
  const body = largeJson();
  const once = () => {
    const response = new BodyCapture(2 * mib, false);
    for (let at = 0; at < body.length; at += 64 * 1024) response.push(body.subarray(at, at + 64 * 1024));
    const started = performance.now();
    const { entry } = harEntry(
      {
        startedAt: Date.now(),
        wait: 1,
        receive: 1,
        request: {
          method: 'GET',
          url: 'http://127.0.0.1:1/api/qna/v1/systems/s1/search?q=order',
          target: '/api/qna/v1/systems/s1/search?q=order',
          httpVersion: '1.1',
          headers: [
            ['authorization', `SSWS ${key}`],
            ['accept', 'application/json'],
          ],
          body: new BodyCapture(2 * mib, false),
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: '1.1',
          headers: [['content-type', 'application/json; charset=utf-8']],
          bytes: body.length,
          body: response,
        },
      },
      { secrets: [], maxBytes: 2 * mib, keepUnreadable: false },
    );
    const ms = performance.now() - started;
    if (entry.response.content.text?.includes(key) !== false) throw new Error('the key was not redacted');
    return ms;
  };
  for (let i = 0; i < 10; i++) once();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) samples.push(once());
  return [
    {
      section,
      metric: `capture and redaction of a ${(body.length / mib).toFixed(2)} MiB JSON answer into a cassette entry, ${rounds} rounds`,
      subject: 'recorder',
      unit: 'ms',
      samples,
      goals: [{ kind: 'max', value: 5 }],
    },
  ];
}
