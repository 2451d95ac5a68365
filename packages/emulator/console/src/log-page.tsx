import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { consoleApi, messageOf } from './api.js';
import { clearLog, type LogEntry, type LogRow, liveProblem, logRows } from './live.js';
import { Json, Show, useLoad } from './load.js';

function statusText(row: LogRow): string {
  if (row.state === 'dropped') return 'dropped';
  if (row.status === undefined) return '…';
  if (row.state === 'streaming') return `${row.status} streaming`;
  if (row.state === 'cut') return `${row.status} cut`;
  return String(row.status);
}

function statusClass(row: LogRow): string {
  if (row.state === 'dropped' || row.state === 'cut' || (row.status ?? 0) >= 500) return 'bad';
  if ((row.status ?? 0) >= 400) return 'warn';
  return 'ok';
}

/** Every request the emulator received, newest first, live; one opened with its exchange. */
export function LogPage(props: { id?: string }) {
  const [hideConsole, setHideConsole] = useState(false);
  const { route } = useLocation();
  const rows = logRows.value.filter((r) => !hideConsole || r.from === 'program');
  const openId = props.id === undefined ? undefined : Number(props.id);
  return (
    <div class="split log">
      <section class="side wide" aria-labelledby="log-title">
        <div class="row between">
          <h1 id="log-title">Request log</h1>
          <div class="row">
            <label class="inline">
              <input
                type="checkbox"
                checked={hideConsole}
                onChange={(e) => setHideConsole(e.currentTarget.checked)}
              />{' '}
              Hide this page's own requests
            </label>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                clearLog().then(
                  () => route('/console/log'),
                  () => undefined,
                )
              }
            >
              Clear
            </button>
          </div>
        </div>
        {liveProblem.value ? (
          <p class="problem" role="alert">
            {liveProblem.value}
          </p>
        ) : null}
        {rows.length === 0 ? (
          <div class="empty">
            <p>No requests yet.</p>
            <p>
              Point a program at this emulator (the <a href="/console">Overview</a> has the lines to copy), or
              use the <a href="/console/playground">Playground</a>: every request shows here as it arrives.
            </p>
          </div>
        ) : (
          <table class="requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Request id</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.id}
                  class={row.id === openId ? 'open' : undefined}
                  data-request-id={row.requestId}
                >
                  <td>{new Date(row.startedAt).toLocaleTimeString()}</td>
                  <td>{row.method}</td>
                  <td class="path">
                    <a href={`/console/log/${row.id}`} aria-current={row.id === openId ? 'true' : undefined}>
                      {row.path}
                    </a>
                  </td>
                  <td class={`status ${statusClass(row)}`}>{statusText(row)}</td>
                  <td>{row.durationMs === undefined ? '…' : `${row.durationMs} ms`}</td>
                  <td>
                    <code>{row.requestId}</code>
                  </td>
                  <td>{row.from === 'console' ? 'console' : 'program'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {openId !== undefined ? (
        <section class="detail" aria-label="Request details">
          <ExchangeDetails id={openId} row={logRows.value.find((r) => r.id === openId)} />
        </section>
      ) : null}
    </div>
  );
}

function ExchangeDetails(props: { id: number; row: LogRow | undefined }) {
  // Loaded again as the entry moves on (a stream ending), so its whole answer shows.
  const [entry, reload] = useLoad(
    () => consoleApi<LogEntry>(`log/${props.id}`),
    [props.id, props.row?.state, props.row?.status],
  );
  return (
    <Show loaded={entry} what="the request" retry={reload}>
      {(e) => (
        <article>
          <h2>
            {e.method} <code>{e.path}</code>
          </h2>
          <p>
            {statusText(e)} in {e.durationMs ?? '…'} ms · <code>{e.requestId}</code> · from{' '}
            {e.from === 'console' ? 'this console' : 'a program'}
          </p>
          <h3>Query</h3>
          {e.query === '' ? <p class="muted">No query.</p> : <QueryTable query={e.query} />}
          <h3>Request headers</h3>
          <HeaderTable headers={e.requestHeaders} />
          <h3>Request body</h3>
          <Body text={e.requestBody} bytes={e.requestBytes} type={e.requestHeaders['content-type']} />
          <h3>Response headers</h3>
          <HeaderTable headers={e.responseHeaders} />
          <h3>Response body</h3>
          <Body text={e.responseBody} bytes={e.responseBytes} type={e.responseHeaders['content-type']} />
        </article>
      )}
    </Show>
  );
}

function QueryTable(props: { query: string }) {
  let params: [string, string][];
  try {
    params = [...new URLSearchParams(props.query)];
  } catch (error) {
    return <p class="problem">{messageOf(error)}</p>;
  }
  return <Pairs pairs={params} />;
}

function HeaderTable(props: { headers: Record<string, string> }) {
  const pairs = Object.entries(props.headers);
  return pairs.length === 0 ? <p class="muted">None.</p> : <Pairs pairs={pairs} />;
}

function Pairs(props: { pairs: [string, string][] }) {
  return (
    <table class="pairs">
      <tbody>
        {props.pairs.map(([name, value], i) => (
          <tr key={i}>
            <th scope="row">{name}</th>
            <td>
              <code>{value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Body(props: { text: string; bytes: number; type: string | undefined }) {
  if (props.bytes === 0 && props.text === '') return <p class="muted">Empty.</p>;
  const cut = new TextEncoder().encode(props.text).length < props.bytes;
  const note = cut ? (
    <p class="muted">The first part of {props.bytes} bytes (the log keeps that much).</p>
  ) : null;
  if (props.type?.startsWith('text/event-stream')) {
    const events = props.text.split(/\r?\n\r?\n/).filter((e) => e.trim() !== '');
    return (
      <>
        {note}
        <ol class="events" aria-label="Stream events">
          {events.map((event, i) => (
            <li key={i}>
              <EventData text={event} />
            </li>
          ))}
        </ol>
      </>
    );
  }
  let value: unknown;
  try {
    value = props.type?.includes('json') ? JSON.parse(props.text) : undefined;
  } catch {
    value = undefined;
  }
  return (
    <>
      {note}
      {value === undefined ? <pre class="text">{props.text}</pre> : <Json value={value} />}
    </>
  );
}

function EventData(props: { text: string }) {
  const data = props.text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  try {
    return <Json value={JSON.parse(data)} />;
  } catch {
    return <pre class="text">{props.text}</pre>;
  }
}
