import { signal } from '@preact/signals';
import { createParser } from 'eventsource-parser';
import type { LiveState, LogRow } from '../../src/control/types.js';
import { consoleApi, messageOf, noteRefusal, withKey } from './api.js';

export type { LoggedExchange as LogEntry, LogRow, ModeStatus } from '../../src/control/types.js';

/** The live state as the page holds it: the mode is absent until the live channel has said it. */
export type ShownState = Omit<LiveState, 'mode'> & Partial<Pick<LiveState, 'mode'>>;

/** The log, newest first, kept current from the emulator's event stream from the page's start. */
export const logRows = signal<LogRow[]>([]);
/** The emulator's state, as its event stream last told it (undefined until the stream first answers). */
export const liveState = signal<ShownState | undefined>(undefined);
/** What went wrong with the live stream, if it is not connected. */
export const liveProblem = signal<string | undefined>(undefined);

const keep = 500;

function upsert(row: LogRow): void {
  const rows = logRows.value;
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) logRows.value = rows.map((r, i) => (i === at ? row : r));
  else logRows.value = [row, ...rows].sort((a, b) => b.id - a.id).slice(0, keep);
}

/** How long the page waits before it opens the live channel again, once it was lost. */
const reconnectMs = 2000;

/**
 * Opens the page's one live channel to the emulator: `state` events (faults, rate limit, open streams)
 * and `entry` events (the request log), kept open for as long as the page is, and opened again when
 * lost. It is read with `fetch`, not `EventSource`: an `EventSource` cannot send headers, so a page
 * opened from another machine would have to put its key in the URL, where access logs and proxies
 * keep it. With `fetch` the key rides in `Authorization`, as on every other call.
 */
export function startLive(): void {
  void follow();
}

async function follow(): Promise<void> {
  for (;;) {
    const outcome = await listenOnce();
    // The emulator asked for a key: the page shows the form, and reloads once it has one.
    if (outcome === 'refused') return;
    liveProblem.value =
      'The console lost its live connection to the emulator: what it shows may be out of date. It reconnects by itself once the emulator is back.';
    await new Promise((resolve) => setTimeout(resolve, reconnectMs));
  }
}

/** One connection of the live channel, until it ends or is refused. */
async function listenOnce(): Promise<'ended' | 'refused'> {
  let response: Response;
  try {
    response = await fetch('/console/api/events', {
      headers: withKey({ accept: 'text/event-stream' }),
      cache: 'no-store',
    });
  } catch {
    return 'ended';
  }
  if (response.status === 401) {
    noteRefusal(response.status);
    return 'refused';
  }
  if (!response.ok || !response.body) return 'ended';
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
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'state') liveState.value = JSON.parse(event.data) as LiveState;
      else if (event.event === 'entry') upsert(JSON.parse(event.data) as LogRow);
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) parser.feed(next.value);
  } catch {
    // Cut: opened again after a pause.
  }
  return 'ended';
}

export async function clearLog(): Promise<void> {
  await consoleApi('log', 'DELETE');
  logRows.value = [];
}
