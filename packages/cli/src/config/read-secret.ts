import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { UsageError } from '../exit-codes.js';

/**
 * A secret from standard input: typed at a hidden prompt on a terminal, or piped in (its first line).
 * Never from an argument, where it would stay in the shell's history and the process list.
 */
export async function readSecret(what: string): Promise<string> {
  let secret: string;
  if (process.stdin.isTTY) {
    process.stderr.write(`${what}: `);
    // Nothing typed is echoed: readline writes to a sink.
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: process.stdin, output: sink, terminal: true });
    try {
      secret = await rl.question('');
    } finally {
      rl.close();
      process.stderr.write('\n');
    }
  } else {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    secret = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  }
  secret = secret.trim();
  if (secret === '') throw new UsageError(`No ${what} on standard input.`);
  return secret;
}
