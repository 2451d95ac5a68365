import { useState } from 'preact/hooks';
import type { FaultRule, FaultState } from '../../src/control/types.js';
import { consoleApi, messageOf } from './api.js';
import { liveProblem, liveState, type ShownState } from './live.js';
import { Show, useLoad } from './load.js';

const cuts = {
  none: 'No cut',
  'before-headers': 'Drop the connection before the answer',
  'during-body': 'Cut the body part way',
  events: 'Cut a stream after some events',
} as const;

function describeFault(rule: FaultRule): string {
  const parts: string[] = [];
  if (rule.status !== undefined) parts.push(`answer ${rule.status}`);
  if (rule.latencyMs) parts.push(`wait ${rule.latencyMs} ms`);
  if (rule.drop === 'before-headers') parts.push('drop the connection before the answer');
  if (rule.drop === 'during-body') parts.push('cut the body part way');
  if (rule.dropAfterEvents !== undefined) parts.push(`cut the stream after ${rule.dropAfterEvents} events`);
  if (rule.malformed) parts.push('send malformed JSON');
  if (rule.headers) parts.push(`headers ${Object.keys(rule.headers).join(', ')}`);
  if (rule.body !== undefined) parts.push('a body of its own');
  if (rule.contentType) parts.push(`content type ${rule.contentType}`);
  return parts.join(', ') || 'no effect';
}

/** Switch faults and the rate limit on, see them (live, as requests use them up), clear them. */
export function FaultsPage() {
  const [loaded, reload] = useLoad(() => consoleApi<FaultState>('faults'), []);
  const [problem, setProblem] = useState<string | undefined>();
  const routes = loaded.state === 'ready' ? loaded.value.routes : undefined;
  // The live stream keeps this current; the first load and each action's answer fill it in sooner.
  const current =
    liveState.value ?? (loaded.state === 'ready' ? { ...loaded.value, openStreams: 0 } : undefined);

  async function act(name: string, method: string, body?: unknown) {
    try {
      const { faults, rateLimit } = await consoleApi<FaultState>(name, method, body);
      liveState.value = {
        ...liveState.value,
        faults,
        rateLimit,
        openStreams: liveState.value?.openStreams ?? 0,
      };
      setProblem(undefined);
    } catch (error) {
      setProblem(messageOf(error));
    }
  }

  return (
    <div class="faults">
      <h1>Faults and limits</h1>
      <p class="muted">
        Faults apply to the API requests the emulator receives from any program (and from this console's Data
        and Playground). Each rule is used up by the requests it matches: the list below follows, live.
      </p>
      {problem ? (
        <p class="problem" role="alert">
          {problem}
        </p>
      ) : null}
      {liveProblem.value ? (
        <p class="problem" role="alert">
          {liveProblem.value}
        </p>
      ) : null}
      <Show loaded={loaded} what="the faults in force" retry={reload}>
        {() =>
          current && routes ? (
            <div class="split even">
              <section class="panel" aria-labelledby="add-fault">
                <h2 id="add-fault">Switch a fault on</h2>
                <FaultForm routes={routes} onAdd={(rule) => act('faults', 'POST', rule)} />
                <h2>Rate limit</h2>
                <RateLimitForm state={current} onSet={(body) => act('rate-limit', 'PUT', body)} />
              </section>
              <section class="panel" aria-labelledby="active-faults">
                <div class="row between">
                  <h2 id="active-faults">In force</h2>
                  <button type="button" class="secondary" onClick={() => act('faults', 'DELETE')}>
                    Clear all
                  </button>
                </div>
                <div aria-live="polite">
                  <InForce state={current} onRemoveRateLimit={() => act('rate-limit', 'DELETE')} />
                  <p class="muted" data-testid="open-streams">
                    {streamsText(current.openStreams)}
                  </p>
                </div>
              </section>
            </div>
          ) : null
        }
      </Show>
    </div>
  );
}

export function streamsText(open: number): string {
  if (open === 0) return 'No A2A stream is open.';
  return open === 1 ? '1 A2A stream is open.' : `${open} A2A streams are open.`;
}

function InForce(props: { state: ShownState; onRemoveRateLimit: () => void }) {
  const { faults, rateLimit } = props.state;
  if (faults.length === 0 && rateLimit.perSecond === null) {
    return (
      <p class="muted" data-testid="no-faults">
        No faults and no rate limit: the emulator answers every request normally.
      </p>
    );
  }
  return (
    <ul class="active" data-testid="active-faults">
      {faults.map((f, i) => (
        <li key={i}>
          <strong>{f.rule.route ?? '*'}</strong>: {describeFault(f.rule)}{' '}
          <span class="muted" data-testid="uses-left">
            ({f.remaining} {f.remaining === 1 ? 'use' : 'uses'} left)
          </span>
        </li>
      ))}
      {rateLimit.perSecond !== null ? (
        <li>
          <strong>Rate limit</strong>: {rateLimit.perSecond} requests a second per credential, bursts of{' '}
          {rateLimit.burst}{' '}
          <button type="button" class="link" onClick={props.onRemoveRateLimit}>
            remove
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function FaultForm(props: { routes: string[]; onAdd: (rule: FaultRule) => void }) {
  const [route, setRoute] = useState('*');
  const [times, setTimes] = useState('1');
  const [status, setStatus] = useState('503');
  const [retryAfter, setRetryAfter] = useState('');
  const [latency, setLatency] = useState('');
  const [cut, setCut] = useState<keyof typeof cuts>('none');
  const [events, setEvents] = useState('2');
  const [malformed, setMalformed] = useState(false);

  function submit(event: Event) {
    event.preventDefault();
    const rule: FaultRule = { route: route as FaultRule['route'], times: Number(times) };
    if (status.trim() !== '') rule.status = Number(status);
    if (retryAfter.trim() !== '') rule.headers = { 'retry-after': retryAfter.trim() };
    if (latency.trim() !== '') rule.latencyMs = Number(latency);
    if (cut === 'before-headers' || cut === 'during-body') rule.drop = cut;
    if (cut === 'events') rule.dropAfterEvents = Number(events);
    if (malformed) rule.malformed = true;
    props.onAdd(rule);
  }

  return (
    <form onSubmit={submit} class="stack">
      <div class="row">
        <label>
          Applies to
          <select value={route} onChange={(e) => setRoute(e.currentTarget.value)}>
            {props.routes.map((r) => (
              <option key={r} value={r}>
                {r === '*' ? 'every API request (*)' : r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Times
          <input type="number" min="1" value={times} onInput={(e) => setTimes(e.currentTarget.value)} />
        </label>
      </div>
      <div class="row">
        <label>
          Status code (empty: the operation answers)
          <input
            type="number"
            min="200"
            max="599"
            value={status}
            onInput={(e) => setStatus(e.currentTarget.value)}
          />
        </label>
        <label>
          Retry-After (seconds, optional)
          <input value={retryAfter} onInput={(e) => setRetryAfter(e.currentTarget.value)} />
        </label>
        <label>
          Latency (ms, optional)
          <input type="number" min="0" value={latency} onInput={(e) => setLatency(e.currentTarget.value)} />
        </label>
      </div>
      <div class="row">
        <label>
          Cut
          <select value={cut} onChange={(e) => setCut(e.currentTarget.value as keyof typeof cuts)}>
            {Object.entries(cuts).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {cut === 'events' ? (
          <label>
            Events before the cut
            <input type="number" min="0" value={events} onInput={(e) => setEvents(e.currentTarget.value)} />
          </label>
        ) : null}
        <label class="inline">
          <input
            type="checkbox"
            checked={malformed}
            onChange={(e) => setMalformed(e.currentTarget.checked)}
          />{' '}
          Malformed JSON
        </label>
      </div>
      <p class="muted">
        A status code answers at once; clear it to let latency, cuts or malformed JSON reach the operation's
        own answer.
      </p>
      <div>
        <button type="submit">Switch the fault on</button>
      </div>
    </form>
  );
}

function RateLimitForm(props: {
  state: ShownState;
  onSet: (body: { perSecond: number; burst: number }) => void;
}) {
  const [perSecond, setPerSecond] = useState('1');
  const [burst, setBurst] = useState('1');
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSet({ perSecond: Number(perSecond), burst: Number(burst) });
      }}
    >
      <label>
        Requests a second
        <input
          type="number"
          min="0.1"
          step="any"
          value={perSecond}
          onInput={(e) => setPerSecond(e.currentTarget.value)}
        />
      </label>
      <label>
        Burst
        <input type="number" min="1" value={burst} onInput={(e) => setBurst(e.currentTarget.value)} />
      </label>
      <button type="submit">
        {props.state.rateLimit.perSecond === null ? 'Switch the rate limit on' : 'Change the rate limit'}
      </button>
    </form>
  );
}
