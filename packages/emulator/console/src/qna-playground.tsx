import { useState } from 'preact/hooks';
import { api, enc, messageOf } from './api.js';
import { Show, useLoad } from './load.js';
import type { NameMap, Passage, QnaFilter, SearchAnswer } from './service-types.js';

type Result =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'failed'; message: string }
  | { state: 'done'; mode: 'search' | 'answer'; value: SearchAnswer };

/** A filter expression of the service: `field = 'value'` for each field picked, joined with `and`. */
function filterExpression(picked: Record<string, string>, filters: QnaFilter[]): string {
  return Object.entries(picked)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => {
      const type = filters.find((f) => f.name === name)?.type;
      const literal = type === 'integer' || type === 'number' ? value : `'${value.replaceAll("'", "''")}'`;
      return `${name} = ${literal}`;
    })
    .join(' and ');
}

function QnaPlayground(props: { systems: NameMap }) {
  const ids = Object.keys(props.systems);
  const [systemId, setSystemId] = useState(ids[0] ?? '');
  const [mode, setMode] = useState<'search' | 'answer'>('search');
  const [text, setText] = useState('');
  const [llm, setLlm] = useState('');
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Result>({ state: 'idle' });
  const base = `/api/qna/v1/systems/${enc(systemId)}`;
  const [llms] = useLoad(
    () => (systemId ? api<NameMap>(`${base}/llm-providers`) : Promise.resolve<NameMap>({})),
    [base],
  );
  const [filters] = useLoad(
    () => (systemId ? api<{ filters: QnaFilter[] }>(`${base}/filters`) : Promise.resolve({ filters: [] })),
    [base],
  );
  const filterList = filters.state === 'ready' ? filters.value.filters : [];
  const llmIds = llms.state === 'ready' ? Object.keys(llms.value) : [];
  const chosenLlm = llmIds.includes(llm) ? llm : (llmIds[0] ?? '');

  async function run(event: Event) {
    event.preventDefault();
    if (text.trim() === '') {
      setResult({ state: 'failed', message: `Type a ${mode === 'search' ? 'query' : 'question'} first.` });
      return;
    }
    setResult({ state: 'running' });
    const query = new URLSearchParams();
    query.set(mode === 'search' ? 'query' : 'questionText', text);
    if (mode === 'answer' || chosenLlm) query.set('llmProviderId', chosenLlm);
    const filter = filterExpression(picked, filterList);
    if (filter) query.set('filter', filter);
    try {
      const value = await api<SearchAnswer>(`${base}/${mode}?${query}`);
      setResult({ state: 'done', mode, value });
    } catch (error) {
      setResult({ state: 'failed', message: messageOf(error) });
    }
  }

  if (ids.length === 0) return <p class="muted">No QnA systems to query.</p>;
  return (
    <section aria-labelledby="qna-title" class="panel">
      <h2 id="qna-title">Search and answer</h2>
      <form onSubmit={run} class="stack">
        <div class="row">
          <label>
            QnA system
            <select
              value={systemId}
              onChange={(e) => {
                setSystemId(e.currentTarget.value);
                setPicked({});
              }}
            >
              {ids.map((id) => (
                <option key={id} value={id}>
                  {props.systems[id]}
                </option>
              ))}
            </select>
          </label>
          <fieldset class="modes">
            <legend>Call</legend>
            <label>
              <input
                type="radio"
                name="mode"
                checked={mode === 'search'}
                onChange={() => setMode('search')}
              />{' '}
              Search
            </label>
            <label>
              <input
                type="radio"
                name="mode"
                checked={mode === 'answer'}
                onChange={() => setMode('answer')}
              />{' '}
              Answer
            </label>
          </fieldset>
          <label>
            LLM provider
            <select value={chosenLlm} onChange={(e) => setLlm(e.currentTarget.value)}>
              {llmIds.map((id) => (
                <option key={id} value={id}>
                  {llms.state === 'ready' ? llms.value[id] : id}
                </option>
              ))}
            </select>
          </label>
        </div>
        {filterList.length > 0 ? (
          <fieldset class="row filters">
            <legend>Filters</legend>
            {filterList.map((f) => (
              <label key={f.name} htmlFor={`filter-${f.name}`}>
                {f.name}
                {f.values ? (
                  <select
                    id={`filter-${f.name}`}
                    value={picked[f.name] ?? ''}
                    onChange={(e) => setPicked({ ...picked, [f.name]: e.currentTarget.value })}
                  >
                    <option value="">any</option>
                    {f.values.map((v) => (
                      <option key={String(v)} value={String(v)}>
                        {String(v)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={`filter-${f.name}`}
                    value={picked[f.name] ?? ''}
                    placeholder="any"
                    onInput={(e) => setPicked({ ...picked, [f.name]: e.currentTarget.value })}
                  />
                )}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div class="row grow">
          <label class="grow">
            {mode === 'search' ? 'Query' : 'Question'}
            <input
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
              placeholder={mode === 'search' ? 'What are you looking for?' : 'Ask the system a question'}
            />
          </label>
          <button type="submit" disabled={result.state === 'running'}>
            {mode === 'search' ? 'Search' : 'Answer'}
          </button>
        </div>
      </form>
      <QnaResult result={result} base={systemId} />
    </section>
  );
}

function QnaResult(props: { result: Result; base: string }) {
  const { result } = props;
  if (result.state === 'idle') {
    return <p class="muted">Results show here: each passage with its source, type, link and score.</p>;
  }
  if (result.state === 'running') return <p aria-live="polite">Asking the emulator…</p>;
  if (result.state === 'failed') {
    return (
      <div class="problem" role="alert">
        <p>{result.message}</p>
        <p>
          A fault or a rate limit may be switched on: see <a href="/console/faults">Faults and limits</a>, and
          the call in the <a href="/console/log">Request log</a>.
        </p>
      </div>
    );
  }
  const { value } = result;
  const passages = value.searchResultsList ?? value.context ?? [];
  return (
    <div class="results" aria-live="polite">
      {value.status === 'FAILED' ? (
        <p class="problem" role="alert">
          The service answered FAILED: {value.failureReason}
        </p>
      ) : null}
      {result.mode === 'answer' ? (
        <div class="answer">
          <h3>Answer</h3>
          <p data-testid="answer">{value.answer?.trim() || '(no answer)'}</p>
        </div>
      ) : null}
      <h3>
        {passages.length} {passages.length === 1 ? 'passage' : 'passages'}
        {result.mode === 'answer' ? ' cited as context' : ''}
      </h3>
      {passages.length === 0 ? (
        <p class="muted">Nothing matched. Try other words, or fewer filters.</p>
      ) : (
        <ol class="passages">
          {passages.map((p, i) => (
            <PassageItem key={`${p.documentId}-${i}`} passage={p} systemId={props.base} />
          ))}
        </ol>
      )}
    </div>
  );
}

function PassageItem(props: { passage: Passage; systemId: string }) {
  const p = props.passage;
  const score = p.similarityScore ?? p.score;
  return (
    <li class="passage">
      <p class="passage-title">
        <strong>{p.title ?? p.documentId ?? 'Passage'}</strong>
        {score !== undefined ? <span class="score">score {score.toFixed(3)}</span> : null}
      </p>
      <p>{p.data ?? p.contents}</p>
      <dl class="facts small">
        <dt>Source</dt>
        <dd>
          <code>{p.source ?? '—'}</code>
        </dd>
        <dt>Type</dt>
        <dd>{p.type ?? '—'}</dd>
        <dt>Link</dt>
        <dd>
          <code>{p.link ?? '—'}</code>
        </dd>
        {p.documentId ? (
          <>
            <dt>Document</dt>
            <dd>
              <a href={`/console/data/system/${enc(props.systemId)}?document=${enc(p.documentId)}`}>
                open document {p.documentId}
              </a>
            </dd>
          </>
        ) : null}
      </dl>
    </li>
  );
}

export function QnaSection() {
  const [systems, reload] = useLoad(() => api<NameMap>('/api/qna/v1/systems'), []);
  return (
    <Show loaded={systems} what="the QnA systems" retry={reload}>
      {(map) => <QnaPlayground systems={map} />}
    </Show>
  );
}
