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

export interface FaultRule {
  route?: string;
  times?: number;
  latencyMs?: number;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  drop?: 'before-headers' | 'during-body';
  dropAfterEvents?: number;
  malformed?: boolean;
  contentType?: string;
}

/** What changes as requests come and go: the faults in force with their uses left, the rate limit, the open streams. */
export interface LiveState {
  faults: { rule: FaultRule; remaining: number }[];
  rateLimit: { perSecond: number | null; burst: number | null };
  openStreams: number;
  /** Absent until the live channel has said it (the faults view fills the rest in from its own answers). */
  mode?: ModeStatus;
}

/** A difference between a real response and the spec, as the drift report counts it. */
interface DriftFinding {
  operationId: string;
  kind: string;
  response: string;
  at: string;
  expected?: string;
  example: unknown;
  count: number;
}

/** The mode the emulator runs in, and what goes with it. */
export interface ModeStatus {
  mode: 'emulating' | 'recording' | 'replaying';
  recording?: { target: string; cassette: string; entries: number; bytes: number };
  replaying?: { cassette: string; entries: number };
  drift?: { responses: number; findings: DriftFinding[] };
  exportFolder?: string;
}

/** The log, newest first, kept current from the emulator's event stream from the page's start. */
export const logRows = signal<LogRow[]>([]);
/** The emulator's state, as its event stream last told it (undefined until the stream first answers). */
export const liveState = signal<LiveState | undefined>(undefined);
/** What went wrong with the live stream, if it is not connected. */
export const liveProblem = signal<string | undefined>(undefined);

const keep = 500;

function upsert(row: LogRow): void {
  const rows = logRows.value;
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) logRows.value = rows.map((r, i) => (i === at ? row : r));
  else logRows.value = [row, ...rows].sort((a, b) => b.id - a.id).slice(0, keep);
}

/**
 * Opens the page's one live channel to the emulator: `state` events (faults, rate limit, open streams)
 * and `entry` events (the request log), kept open for as long as the page is.
 */
export function startLive(): void {
  const events = new EventSource('/console/api/events');
  events.addEventListener('open', () => {
    liveProblem.value = undefined;
    // What happened before (or while) the stream was away.
    consoleApi<{ entries: LogRow[] }>('log').then(
      ({ entries }) => {
        for (const row of entries.reverse()) upsert(row);
      },
      (error: unknown) => {
        liveProblem.value = messageOf(error);
      },
    );
  });
  events.addEventListener('state', (event) => {
    liveState.value = JSON.parse((event as MessageEvent<string>).data) as LiveState;
  });
  events.addEventListener('entry', (event) =>
    upsert(JSON.parse((event as MessageEvent<string>).data) as LogRow),
  );
  events.addEventListener('error', () => {
    liveProblem.value =
      'The console lost its live connection to the emulator: what it shows may be out of date. It reconnects by itself once the emulator is back.';
  });
}

export async function clearLog(): Promise<void> {
  await consoleApi('log', 'DELETE');
  logRows.value = [];
}
