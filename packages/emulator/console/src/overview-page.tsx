import { useRef, useState } from 'preact/hooks';
import type { Overview } from '../../src/control/types.js';
import { api, consoleApi, enc, messageOf } from './api.js';
import { streamsText } from './faults-page.js';
import { liveState, logRows } from './live.js';
import { Show, useLoad } from './load.js';
import { ModePanel } from './mode-panel.js';
import type { Agent, NameMap } from './service-types.js';

/** The landing page: what is running, and how to point a client at it. */
export function OverviewPage() {
  const [overview, reload] = useLoad(() => consoleApi<Overview>('overview'), []);
  const [systems] = useLoad(() => api<NameMap>('/api/qna/v1/systems'), []);
  const [agents] = useLoad(() => api<Agent[]>('/api/agents/v1/'), []);
  return (
    <div class="overview">
      <Show loaded={overview} what="what is running" retry={reload}>
        {(about) => (
          <>
            <h1>Dataworkz emulator {about.version}</h1>
            <p class="lead">
              A local stand-in for the Dataworkz API (QnA systems and A2A agents), listening on{' '}
              <code>{location.origin}</code>. Point a client at it as below; every request it sends shows in
              the <a href="/console/log">Request log</a>.
            </p>
            <div class="split even">
              <section class="panel" aria-labelledby="connect-title">
                <h2 id="connect-title">Point a client at it</h2>
                <Connect />
              </section>
              <section class="panel" aria-labelledby="running-title">
                <h2 id="running-title">What is running</h2>
                <dl class="facts">
                  <dt>Version</dt>
                  <dd>
                    <code>@dataworkz/emulator</code> {about.version}
                  </dd>
                  <dt>QnA systems</dt>
                  <dd>
                    <Show loaded={systems} what="the QnA systems">
                      {(map) => <Links kind="system" items={Object.entries(map)} />}
                    </Show>
                  </dd>
                  <dt>Agents</dt>
                  <dd>
                    <Show loaded={agents} what="the agents">
                      {(list) => <Links kind="agent" items={list.map((a) => [a.agentId, a.name])} />}
                    </Show>
                  </dd>
                  <dt>A2A versions</dt>
                  <dd>
                    0.3 and 1.0, per request (<code>A2A-Version</code>; none is 0.3, as the service speaks
                    it); a card request naming no version gets the{' '}
                    {about.a2aVersion === '1.0' ? 'v1.0 card (supportedInterfaces)' : 'v0.3 card'}
                  </dd>
                  <dt>Credentials accepted</dt>
                  <dd>{about.credentials.join('; ')}</dd>
                  <dt>QnA ranking</dt>
                  <dd>{about.ranking}</dd>
                  <dt>Browser origins (CORS)</dt>
                  <dd>
                    {about.corsOrigins === '*'
                      ? 'any (*)'
                      : about.corsOrigins.length === 0
                        ? 'none: CORS is off (start with --cors to allow a page)'
                        : about.corsOrigins.join(', ')}
                  </dd>
                  <dt>Listening on</dt>
                  <dd>
                    <code>{about.listening}</code>
                  </dd>
                </dl>
                <h3>Right now</h3>
                <Now />
              </section>
            </div>
            <ModePanel />
          </>
        )}
      </Show>
    </div>
  );
}

/** A count, then the items as links to their details. */
function Links(props: { kind: 'system' | 'agent'; items: [string, string][] }) {
  const { kind, items } = props;
  const noun = kind === 'system' ? 'system' : 'agent';
  if (items.length === 0) {
    return (
      <>
        none
        {kind === 'system' ? ' (start the emulator with --data DIR to serve a folder of documents)' : ''}
      </>
    );
  }
  return (
    <>
      {items.length} {items.length === 1 ? noun : `${noun}s`}:{' '}
      {items.map(([id, name], i) => (
        <span key={id}>
          {i > 0 ? ', ' : ''}
          <a href={`/console/data/${kind}/${enc(id)}`}>{name}</a>
        </span>
      ))}
    </>
  );
}

/** The faults, streams and requests of the moment, from the live channel. */
function Now() {
  const state = liveState.value;
  const requests = logRows.value.length;
  if (!state) return <p class="muted">Connecting…</p>;
  const faults = state.faults.length;
  return (
    <ul class="now" aria-live="polite">
      <li data-testid="overview-faults">
        <a href="/console/faults">
          {faults === 0 ? 'No fault' : faults === 1 ? '1 fault' : `${faults} faults`} in force
        </a>
        {state.rateLimit.perSecond !== null
          ? `, and a rate limit of ${state.rateLimit.perSecond} requests a second`
          : ''}
      </li>
      <li data-testid="overview-streams">{streamsText(state.openStreams)}</li>
      <li>
        <a href="/console/log">
          {requests === 0 ? 'No request' : requests === 1 ? '1 request' : `${requests} requests`} in the log
        </a>
      </li>
    </ul>
  );
}

const hiddenKey = '•'.repeat(12);

/** The base URL, the API key (fetched only when asked for), the export line to copy and a client snippet. */
function Connect() {
  const [key, setKey] = useState<string | undefined>();
  const [shown, setShown] = useState(false);
  const [note, setNote] = useState<{ text: string; bad?: boolean } | undefined>();
  const exportBlock = useRef<HTMLPreElement>(null);
  const base = location.origin;

  async function fetchKey(): Promise<string | undefined> {
    if (key !== undefined) return key;
    try {
      const { apiKey } = await consoleApi<{ apiKey: string }>('key');
      setKey(apiKey);
      return apiKey;
    } catch (error) {
      setNote({ text: messageOf(error), bad: true });
      return undefined;
    }
  }

  async function toggle() {
    if (shown) {
      setShown(false);
      return;
    }
    if ((await fetchKey()) !== undefined) {
      setShown(true);
      setNote(undefined);
    }
  }

  async function copy() {
    const apiKey = await fetchKey();
    const line = exportLine(base, apiKey ?? '<the key the emulator printed>');
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(line);
      setNote({ text: apiKey === undefined ? 'Copied, without the key.' : 'Copied, with the key.' });
    } catch {
      // No clipboard (a page not served from a loopback address): select the text instead.
      setShown(apiKey !== undefined);
      const block = exportBlock.current;
      if (block) window.getSelection()?.selectAllChildren(block);
      setNote({ text: 'The browser would not copy: the line is selected, press Ctrl+C (⌘C on a Mac).' });
    }
  }

  return (
    <>
      <dl class="facts">
        <dt>Base URL</dt>
        <dd>
          <code data-testid="base-url">{base}</code>
        </dd>
        <dt>API key</dt>
        <dd class="row">
          <code data-testid="api-key">{shown && key !== undefined ? key : hiddenKey}</code>
          <button type="button" class="secondary small" onClick={toggle} aria-pressed={shown}>
            {shown ? 'Hide the key' : 'Show the key'}
          </button>
        </dd>
      </dl>
      <p class="muted">
        Sent as <code>Authorization: SSWS &lt;key&gt;</code>. The key stays out of this page until you show or
        copy it, and only a browser on the machine the emulator runs on can see it.
      </p>
      {liveState.value?.mode?.mode === 'recording' ? (
        <p class="note" data-testid="recording-key">
          Recording: API requests go to the deployment, which checks the credential. Use the deployment's key,
          not this one.
        </p>
      ) : null}
      <h3 id="export-title">In a shell</h3>
      <figure class="copyable" aria-labelledby="export-title">
        <pre class="text" ref={exportBlock} data-testid="export-line">
          {exportLine(base, shown && key !== undefined ? key : hiddenKey)}
        </pre>
        <button type="button" onClick={copy}>
          Copy
        </button>
      </figure>
      <p class="note" role="status" data-testid="copy-note">
        {note ? <span class={note.bad ? 'bad' : undefined}>{note.text}</span> : null}
      </p>
      <h3 id="client-title">In code</h3>
      <figure aria-labelledby="client-title">
        <pre class="text">
          {`import Dataworkz from '@dataworkz/client';
const dw = new Dataworkz(); // the base URL and key from the environment`}
        </pre>
      </figure>
      <p class="muted">
        It reads <code>DATAWORKZ_BASE_URL</code> and <code>DATAWORKZ_API_KEY</code>; then, say,{' '}
        <code>await dw.qna.list()</code>. The <code>dataworkz</code> command reads the same two variables.
      </p>
    </>
  );
}

function exportLine(base: string, key: string): string {
  return `export DATAWORKZ_BASE_URL=${base} DATAWORKZ_API_KEY=${key}`;
}
