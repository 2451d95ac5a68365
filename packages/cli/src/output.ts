import { createColors } from 'picocolors';
import { terminalText } from './terminal-text.js';

type Colors = ReturnType<typeof createColors>;

/** Where a command writes: results on stdout, progress and errors on stderr. */
export interface Output {
  readonly json: boolean;
  readonly colors: Colors;
  /** Whether stderr is a terminal a status line can redraw. */
  readonly interactive: boolean;
  line(text?: string): void;
  error(text: string): void;
  /** A value as JSON on stdout, exactly as the service sent it. */
  printJson(value: unknown): void;
  /**
   * Rows under a header, in aligned columns (tab-separated when not on a terminal, for `cut`/`awk`,
   * the header too with `headerInPipe`). Cells are printed through `terminalText`.
   */
  table(
    header: readonly string[],
    rows: readonly (readonly string[])[],
    options?: { headerInPipe?: boolean },
  ): void;
}

export interface OutputOptions {
  json: boolean;
  color: boolean | undefined;
}

/** Colour only on a terminal, never with NO_COLOR or `--no-color`; FORCE_COLOR turns it on. */
function useColor(option: boolean | undefined): boolean {
  if (option === false || process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(process.stdout.isTTY) && process.env.TERM !== 'dumb';
}

export function createOutput(options: OutputOptions): Output {
  const colors = createColors(useColor(options.color));
  const onTerminal = Boolean(process.stdout.isTTY);
  return {
    json: options.json,
    colors,
    // A terminal that reports no width (a bare pseudo-terminal) cannot be redrawn safely.
    interactive: Boolean(process.stderr.isTTY) && (process.stderr.columns ?? 0) > 0,
    line: (text = '') => process.stdout.write(`${text}\n`),
    error: (text) => process.stderr.write(`${text}\n`),
    printJson: (value) =>
      process.stdout.write(`${JSON.stringify(value, null, onTerminal ? 2 : undefined)}\n`),
    table: (header, given, shape = {}) => {
      // Cells hold the service's text: made inert for the terminal (and, in a pipe, free of tabs).
      const rows = given.map((row) => row.map((cell) => terminalText(cell).replace(/[\t\n]/g, ' ')));
      if (!onTerminal) {
        if (shape.headerInPipe) process.stdout.write(`${header.join('\t')}\n`);
        for (const row of rows) process.stdout.write(`${row.join('\t')}\n`);
        return;
      }
      const widths = header.map((title, i) =>
        Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
      );
      const format = (row: readonly string[]) =>
        row
          .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd();
      process.stdout.write(`${colors.bold(format(header))}\n`);
      for (const row of rows) process.stdout.write(`${format(row)}\n`);
    },
  };
}
