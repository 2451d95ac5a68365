import { useState } from 'preact/hooks';
import { consoleApi, messageOf } from './api.js';
import { Show, useLoad } from './load.js';

interface FaultRule {
  route?: string;
  times?: number;
  latencyMs?: number;
  status?: number;
  headers?: Record<string, string>;
  drop?: 'before-headers' | 'during-body';
  dropAfterEvents?: number;
  malformed?: boolean;
}

interface FaultState {
  faults: { rule: FaultRule; remaining: number }[];
  rateLimit: { perSecond: number | null; burst: number | null };
  routes: string[];
}

const cuts = {
  none: 'No cut',
  'before-headers': 'Drop the connection before the answer',
  'during-body': 'Cut the body part way',
  events: 'Cut a stream after some events',
} as const;

function describe(rule: FaultRule): string {
  const parts: string[] = [];
  if (rule.status !== undefined) parts.push(`answer ${rule.status}`);
  if (rule.latencyMs) parts.push(`wait ${rule.latencyMs} ms`);
  if (rule.drop === 'before-headers') parts.push('drop the connection before the answer');
  if (rule.drop === 'during-body') parts.push('cut the body part way');
  if (rule.dropAfterEvents !== undefined) parts.push(`cut the stream after ${rule.dropAfterEvents} events`);
  if (rule.malformed) parts.push('send malformed JSON');
  if (rule.headers) parts.push(`headers ${Object.keys(rule.headers).join(', ')}`);
  return parts.join(', ') || 'no effect';
}

/** Switch faults and the rate limit on, see them, clear them. */
export function FaultsPage() {
  const [loaded, reload] = useLoad(() => consoleApi<FaultState>('faults'), []);
  const [state, setState] = useState<FaultState | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const current = state ?? (loaded.state === 'ready' ? loaded.value : undefined);

  async function act(name: string, method: string, body?: unknown) {
    try {
      setState(await consoleApi<FaultState>(name, method, body));
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
        and Playground). Each rule is used up by the requests it matches.
      </p>
      {problem ? (
        <p class="problem" role="alert">
          {problem}
        </p>
      ) : null}
      <Show loaded={loaded} what="the faults in force" retry={reload}>
        {() =>
          current ? (
            <div class="split even">
              <section class="panel" aria-labelledby="add-fault">
                <h2 id="add-fault">Switch a fault on</h2>
                <FaultForm routes={current.routes} onAdd={(rule) => act('faults', 'POST', rule)} />
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
                {current.faults.length === 0 && current.rateLimit.perSecond === null ? (
                  <p class="muted" data-testid="no-faults">
                    No faults and no rate limit: the emulator answers every request normally.
                  </p>
                ) : (
                  <ul class="active" data-testid="active-faults">
                    {current.faults.map((f, i) => (
                      <li key={i}>
                        <strong>{f.rule.route ?? '*'}</strong>: {describe(f.rule)}{' '}
                        <span class="muted">
                          ({f.remaining} {f.remaining === 1 ? 'use' : 'uses'} left)
                        </span>
                      </li>
                    ))}
                    {current.rateLimit.perSecond !== null ? (
                      <li>
                        <strong>Rate limit</strong>: {current.rateLimit.perSecond} requests a second per
                        credential, bursts of {current.rateLimit.burst}{' '}
                        <button type="button" class="link" onClick={() => act('rate-limit', 'DELETE')}>
                          remove
                        </button>
                      </li>
                    ) : null}
                  </ul>
                )}
              </section>
            </div>
          ) : null
        }
      </Show>
    </div>
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
    const rule: FaultRule = { route, times: Number(times) };
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
  state: FaultState;
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
