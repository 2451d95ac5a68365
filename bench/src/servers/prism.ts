import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { stopChild } from '@dataworkz/measure';
import { specPath } from '../paths.js';

export interface PrismServer {
  readonly url: string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * Starts Prism's mock server on the project's spec. Request logging is off (`-v warn`), Prism's fastest
 * setting, so the comparison does not count its log output against it.
 */
export async function startPrism(execPath: string, timeoutMs = 60_000): Promise<PrismServer> {
  const port = await freePort();
  const bin = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  const child = spawn(
    execPath,
    [bin, 'mock', '--host', '127.0.0.1', '--port', String(port), '-v', 'warn', specPath],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilListening(child, url, timeoutMs);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, close: () => stopChild(child) };
}

/** Prism prints nothing at `warn` when it starts, so readiness is seen by polling the port. */
async function waitUntilListening(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with code ${child.exitCode}: ${output}`);
    try {
      const response = await fetch(`${url}/api/qna/v1/systems`, {
        headers: { authorization: 'SSWS prism' },
        signal: AbortSignal.timeout(1_000),
      });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`Prism did not listen within ${timeoutMs} ms: ${output}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}
