// Readable output for the example programs: colour only on a terminal that supports it (never in CI or
// with NO_COLOR), and a live status line that redraws in place on a terminal and prints plain lines elsewhere.
import process from 'node:process';

const stdout = process.stdout;
const isTerminal = stdout.isTTY === true && !process.env.CI;
const useColour =
  process.env.FORCE_COLOR !== undefined ? process.env.FORCE_COLOR !== '0' : isTerminal && stdout.hasColors();

const paint = (open: number, close: number) => (text: string) =>
  useColour ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export const bold = paint(1, 22);
export const dim = paint(2, 22);
export const green = paint(32, 39);
export const red = paint(31, 39);
const cyan = paint(36, 39);

/** A section heading inside one example. */
export function heading(text: string): void {
  console.log(`\n${bold(text)}`);
}

/** A labelled value, indented under the current heading. */
export function field(label: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  console.log(`  ${dim(`${label}:`)} ${text}`);
}

/** An indented line of text. */
export function item(text: string): void {
  console.log(`  ${text}`);
}

/** Shortens long service text (answers, document bodies) to one readable line. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface StatusLine {
  /** Shows the latest state of a running operation. */
  update(text: string): void;
  /** Replaces the live line with a final one. */
  done(text: string): void;
}

/**
 * On a terminal: a spinner and the latest update, redrawn in place. Elsewhere (CI, pipes): each update
 * on its own line, so logs keep the whole sequence.
 */
export function statusLine(): StatusLine {
  if (!isTerminal) {
    return {
      update: (text) => console.log(`  … ${text}`),
      done: (text) => console.log(`  ${text}`),
    };
  }
  let frame = 0;
  let current = '';
  const draw = () => {
    const width = Math.max(20, (stdout.columns || 80) - 4);
    const text = current.length > width ? `${current.slice(0, width - 1)}…` : current;
    stdout.write(`\r\u001b[2K  ${cyan(FRAMES[frame % FRAMES.length] ?? '-')} ${text}`);
  };
  const timer = setInterval(() => {
    frame += 1;
    draw();
  }, 80);
  timer.unref();
  return {
    update(text) {
      current = text;
      draw();
    },
    done(text) {
      clearInterval(timer);
      stdout.write(`\r\u001b[2K  ${text}\n`);
    },
  };
}
