import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { bin } from './run-cli.js';

// The escape sequences a terminal interprets (colours, cursor moves, line clears), removed for reading.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it matches
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\r/g;

/**
 * The CLI in a real pseudo-terminal, through util-linux's `script` (in every Debian): what it prints is
 * what a person sees, and what is written to it is typed, Ctrl-C and Ctrl-D included.
 */
export class Terminal {
  private readonly child: ChildProcessWithoutNullStreams;
  private raw = '';
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string>) {
    const command = [process.execPath, bin, ...args]
      .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // A new pseudo-terminal has no size until one is set, as a terminal window does.
    this.child = spawn('script', ['-qefc', `stty cols 120 rows 40; exec ${command}`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env },
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.raw += chunk;
    });
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Everything shown so far, as text. */
  get screen(): string {
    return this.raw.replace(ANSI, '');
  }

  /** The bytes as the terminal received them, escape sequences included. */
  get bytes(): string {
    return this.raw;
  }

  type(text: string): void {
    this.child.stdin.write(text);
  }

  /** Waits (bounded) until the screen, from `from` on, matches; returns the index after the match. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 20_000): Promise<number> {
    for (let waited = 0; waited < timeoutMs; waited += 20) {
      const match = pattern.exec(this.screen.slice(from));
      if (match) return from + match.index + match[0].length;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`The terminal never showed ${pattern}; it shows:\n${this.screen.slice(from)}`);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
