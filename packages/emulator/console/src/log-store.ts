import { signal } from '@preact/signals';
import { consoleApi, messageOf } from './api.js';

/** A row of the request log (no headers, no bodies: those come with the entry). */
export interface LogRow {
  id: number;
  requestId: string;
  method: string;
  path: string;
  query: string;
  from: 'console' | 'program';
  startedAt: string;
  state: 'pending' | 'streaming' | 'done' | 'dropped' | 'cut';
  status?: number;
  durationMs?: number;
}

export interface LogEntry extends LogRow {
  requestHeaders: Record<string, string>;
  requestBody: string;
  requestBytes: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  responseBytes: number;
}

/** The log, newest first, kept current from the emulator's event stream from the page's start. */
export const logRows = signal<LogRow[]>([]);
/** Whether the live stream is connected, and what went wrong if not. */
export const logProblem = signal<string | undefined>(undefined);

const keep = 500;

function upsert(row: LogRow): void {
  const rows = logRows.value;
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) logRows.value = rows.map((r, i) => (i === at ? row : r));
  else logRows.value = [row, ...rows].sort((a, b) => b.id - a.id).slice(0, keep);
}

export function startLog(): void {
  const events = new EventSource('/console/api/log/events');
  events.addEventListener('open', () => {
    logProblem.value = undefined;
    // What happened before (or while) the stream was away.
    consoleApi<{ entries: LogRow[] }>('log').then(
      ({ entries }) => {
        for (const row of entries.reverse()) upsert(row);
      },
      (error: unknown) => {
        logProblem.value = messageOf(error);
      },
    );
  });
  events.addEventListener('entry', (event) =>
    upsert(JSON.parse((event as MessageEvent<string>).data) as LogRow),
  );
  events.addEventListener('error', () => {
    logProblem.value =
      'The live log lost its connection to the emulator. It reconnects by itself once the emulator is back.';
  });
}

export async function clearLog(): Promise<void> {
  await consoleApi('log', 'DELETE');
  logRows.value = [];
}
