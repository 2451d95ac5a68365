import { useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { Json, Show, useLoad } from './load.js';
import type { Agent, NameMap, QnaFilter } from './service-types.js';

/** The QnA systems and agents by name; the one picked (by its address) with its details. */
export function DataPage(props: { kind?: string; id?: string }) {
  const [systems, reloadSystems] = useLoad(() => api<NameMap>('/api/qna/v1/systems'), []);
  const [agents, reloadAgents] = useLoad(() => api<Agent[]>('/api/agents/v1/'), []);
  return (
    <div class="split">
      <section class="side" aria-labelledby="data-lists">
        <h1 id="data-lists">Data</h1>
        <h2>QnA systems</h2>
        <Show loaded={systems} what="the QnA systems" retry={reloadSystems}>
          {(map) =>
            Object.keys(map).length === 0 ? (
              <p class="muted">
                No QnA systems. Start the emulator with --data DIR to serve a folder of documents.
              </p>
            ) : (
              <ul class="picks">
                {Object.entries(map).map(([id, name]) => (
                  <li key={id}>
                    <a
                      class="pick"
                      href={`/console/data/system/${enc(id)}`}
                      aria-current={props.kind === 'system' && props.id === id ? 'true' : undefined}
                    >
                      {name}
                    </a>
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
        <h2>Agents</h2>
        <Show loaded={agents} what="the agents" retry={reloadAgents}>
          {(list) =>
            list.length === 0 ? (
              <p class="muted">No agents.</p>
            ) : (
              <ul class="picks">
                {list.map((a) => (
                  <li key={a.agentId}>
                    <a
                      class="pick"
                      href={`/console/data/agent/${enc(a.agentId)}`}
                      aria-current={props.kind === 'agent' && props.id === a.agentId ? 'true' : undefined}
                    >
                      {a.name}
                    </a>
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
      </section>
      <section class="detail" aria-label="Details">
        {props.kind === 'system' && props.id ? (
          <SystemDetails systemId={props.id} />
        ) : props.kind === 'agent' && props.id ? (
          <AgentDetails agentId={props.id} agents={agents.state === 'ready' ? agents.value : []} />
        ) : (
          <div class="empty">
            <h2>Pick a QnA system or an agent</h2>
            <p>
              Its details show here: a system's settings, LLM providers, filters and documents; an agent's
              card and LLM providers. To try them, go to the <a href="/console/playground">Playground</a>.
            </p>
          </div>
        )}
      </section>
    </div>
  );
}

function SystemDetails(props: { systemId: string }) {
  const base = `/api/qna/v1/systems/${enc(props.systemId)}`;
  const [system, reload] = useLoad(() => api<Record<string, unknown>>(base), [base]);
  const [llms] = useLoad(() => api<NameMap>(`${base}/llm-providers`), [base]);
  const [filters] = useLoad(() => api<{ filters: QnaFilter[] }>(`${base}/filters`), [base]);
  return (
    <Show loaded={system} what="the system" retry={reload}>
      {(s) => (
        <article>
          <h2>{String(s.name ?? props.systemId)}</h2>
          <dl class="facts">
            <dt>System id</dt>
            <dd>
              <code>{props.systemId}</code>
            </dd>
            {['mode', 'status', 'database', 'dimensions', 'prompt', 'createdBy', 'modifiedDate'].map((key) =>
              s[key] === undefined ? null : (
                <>
                  <dt>{key}</dt>
                  <dd>{String(s[key])}</dd>
                </>
              ),
            )}
          </dl>
          <details>
            <summary>Everything the service returns for it</summary>
            <Json value={s} label="System details as JSON" />
          </details>
          <h3>LLM providers</h3>
          <Show loaded={llms} what="the LLM providers">
            {(map) => (
              <NameTable map={map} idLabel="LLM provider id" empty="This system has no LLM providers." />
            )}
          </Show>
          <h3>Filters</h3>
          <Show loaded={filters} what="the filters">
            {({ filters: list }) =>
              list.length === 0 ? (
                <p class="muted">No metadata fields to filter on.</p>
              ) : (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Type</th>
                      <th scope="col">Values</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((f) => (
                      <tr key={f.name}>
                        <td>
                          <code>{f.name}</code>
                          {f.description ? <div class="muted">{f.description}</div> : null}
                        </td>
                        <td>{f.type}</td>
                        <td>
                          {f.values ? f.values.join(', ') : `${f.cardinality ?? 'many'} distinct values`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )
            }
          </Show>
          <DocumentLookup base={base} />
        </article>
      )}
    </Show>
  );
}

function DocumentLookup(props: { base: string }) {
  const initial = new URLSearchParams(location.search).get('document') ?? '';
  const [documentId, setDocumentId] = useState(initial);
  const [opened, setOpened] = useState(initial);
  const [doc] = useLoad(
    () =>
      opened === ''
        ? Promise.resolve(undefined)
        : Promise.all([
            api<Record<string, unknown>>(`${props.base}/document?documentId=${enc(opened)}&detail=metadata`),
            api<string>(`${props.base}/document?documentId=${enc(opened)}&detail=text`),
          ]),
    [props.base, opened],
  );
  return (
    <>
      <h3>Documents</h3>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          setOpened(documentId.trim());
        }}
      >
        <label class="grow">
          Document id
          <input
            value={documentId}
            onInput={(e) => setDocumentId(e.currentTarget.value)}
            placeholder="a documentId from a search result"
          />
        </label>
        <button type="submit">Open</button>
      </form>
      {opened === '' ? (
        <p class="muted">
          Document ids come with every passage of a search or an answer: run one in the{' '}
          <a href="/console/playground">Playground</a> and follow its “open document” link.
        </p>
      ) : (
        <Show loaded={doc} what="the document">
          {(value) =>
            value ? (
              <div class="document">
                <h4>{String(value[0].title ?? opened)}</h4>
                <Json value={value[0]} label="Document metadata as JSON" />
                <figure aria-label="Document text">
                  <pre class="text">{String(value[1])}</pre>
                </figure>
              </div>
            ) : null
          }
        </Show>
      )}
    </>
  );
}

function AgentDetails(props: { agentId: string; agents: Agent[] }) {
  const card = `/api/agents/v1/a2a/${enc(props.agentId)}/.well-known/agent-card.json`;
  const [loaded, reload] = useLoad(() => api<Record<string, unknown>>(card), [card]);
  const [llms] = useLoad(() => api<NameMap>('/api/agents/v1/llm-providers'), []);
  const agent = props.agents.find((a) => a.agentId === props.agentId);
  return (
    <article>
      <h2>{agent?.name ?? props.agentId}</h2>
      <dl class="facts">
        <dt>Agent id</dt>
        <dd>
          <code>{props.agentId}</code>
        </dd>
        {agent?.description ? (
          <>
            <dt>Description</dt>
            <dd>{agent.description}</dd>
          </>
        ) : null}
        {agent?.createdByName ? (
          <>
            <dt>Created by</dt>
            <dd>
              {agent.createdByName}, {agent.createdDate}
            </dd>
          </>
        ) : null}
        {agent?.scenariosCount ? (
          <>
            <dt>Scenarios</dt>
            <dd>{agent.scenariosCount}</dd>
          </>
        ) : null}
      </dl>
      <h3>Agent card</h3>
      <Show loaded={loaded} what="the agent card" retry={reload}>
        {(value) => <Json value={value} label="Agent card as JSON" />}
      </Show>
      <h3>LLM providers of the account</h3>
      <Show loaded={llms} what="the LLM providers">
        {(map) => <NameTable map={map} idLabel="LLM id" empty="The account has no LLM providers." />}
      </Show>
    </article>
  );
}

function NameTable(props: { map: NameMap; idLabel: string; empty: string }) {
  const entries = Object.entries(props.map);
  if (entries.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">{props.idLabel}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([id, name]) => (
          <tr key={id}>
            <td>{name}</td>
            <td>
              <code>{id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
