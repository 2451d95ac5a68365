import { mb } from '../figures.js';
import type { CaseFigures, Size, Suite } from './case.js';
import { formatTable } from './table.js';

/** A case that has not finished by then is reported as failed, and its suite's cleanup ends it. */
const caseTimeoutMs: Record<Size, number> = { quick: 60_000, full: 300_000 };

interface Row {
  suite: string;
  name: string;
  figures: CaseFigures;
  wallMs: number;
}

/** Runs the cases one after another, prints a line as each ends and a table at the end; resolves to the failures. */
export async function runSuites(
  suites: Suite[],
  size: Size,
  only: string[],
  print: (line: string) => void,
): Promise<number> {
  const rows: Row[] = [];
  for (const suite of suites) {
    for (const hostile of suite.cases) {
      if (only.length > 0 && !only.some((text) => hostile.name.includes(text))) continue;
      const started = performance.now();
      const figures = await withTimeout(hostile.run(size), caseTimeoutMs[size]);
      await suite.cleanup?.();
      const row = { suite: suite.name, name: hostile.name, figures, wallMs: performance.now() - started };
      rows.push(row);
      print(
        `${figures.outcome === 'pass' ? 'ok  ' : 'FAIL'} ${suite.name}: ${hostile.name}: ${figures.note}`,
      );
    }
  }
  print('');
  print(
    formatTable(
      ['suite', 'case', 'outcome', 'answer', 'peak RSS', 'fds before->after', 'more', 'wall', 'note'],
      rows.map(({ suite, name, figures, wallMs }) => [
        suite,
        name,
        figures.outcome,
        figures.answerMs === undefined ? '-' : milliseconds(figures.answerMs),
        figures.peakRss === undefined ? '-' : mb(figures.peakRss),
        figures.fds ? `${figures.fds.before ?? '?'} -> ${figures.fds.after ?? '?'}` : '-',
        figures.extra ?? '-',
        milliseconds(wallMs),
        figures.note,
      ]),
    ),
  );
  return rows.filter((row) => row.figures.outcome === 'fail').length;
}

export function milliseconds(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}

async function withTimeout(run: Promise<CaseFigures>, ms: number): Promise<CaseFigures> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CaseFigures>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: 'fail', note: `no result after ${milliseconds(ms)}` }), ms);
  });
  try {
    return await Promise.race([
      run.catch(
        (error: unknown): CaseFigures => ({ outcome: 'fail', note: `threw: ${(error as Error).message}` }),
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
