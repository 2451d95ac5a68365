import { useState } from 'preact/hooks';
import type { ScenarioChoice } from '../../src/control/types.js';
import { api, consoleApi, enc } from './api.js';
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
              endpoints, capabilities, extensions and scenarios, read from its card. To try them, go to the{' '}
              <a href="/console/playground">Playground</a>.
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

/** The parts of an agent card (A2A 0.3 or 1.0) the page reads. */
interface AgentCardView {
  name?: string;
  description?: string;
  version?: string;
  url?: string;
  protocolVersion?: string;
  preferredTransport?: string;
  additionalInterfaces?: { url?: string; transport?: string }[];
  supportedInterfaces?: { url?: string; protocolBinding?: string; protocolVersion?: string }[];
  documentationUrl?: string;
  provider?: { organization?: string; url?: string };
  capabilities?: {
    streaming?: boolean;
    pushNotifications?: boolean;
    stateTransitionHistory?: boolean;
    extensions?: { uri?: string; description?: string; required?: boolean }[];
  };
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  skills?: { id?: string; name?: string; description?: string; tags?: string[]; examples?: string[] }[];
  securitySchemes?: Record<string, Record<string, unknown>>;
}

/** Where an agent answers, from its card: one row per interface. */
function interfacesOf(card: AgentCardView): { url: string; transport: string; version: string }[] {
  if (card.supportedInterfaces?.length) {
    return card.supportedInterfaces.map((i) => ({
      url: i.url ?? '',
      transport: i.protocolBinding ?? 'JSONRPC',
      version: i.protocolVersion ?? '',
    }));
  }
  const rows = card.url
    ? [
        {
          url: card.url,
          transport: card.preferredTransport ?? 'JSONRPC',
          version: card.protocolVersion ?? '',
        },
      ]
    : [];
  for (const i of card.additionalInterfaces ?? []) {
    if (i.url && i.url !== card.url) {
      rows.push({ url: i.url, transport: i.transport ?? '', version: card.protocolVersion ?? '' });
    }
  }
  return rows;
}

const yesNo = (value: boolean | undefined) => (value ? 'yes' : 'no');

/** How a security scheme of the card is presented, in a few words. */
function schemeText(scheme: Record<string, unknown>): string {
  const inner = (scheme.apiKeySecurityScheme ?? scheme.httpAuthSecurityScheme ?? scheme) as Record<
    string,
    unknown
  >;
  if (inner.scheme === 'bearer') return `Authorization: Bearer <${String(inner.bearerFormat ?? 'token')}>`;
  if (typeof inner.description === 'string')
    return `${String(inner.name ?? 'Authorization')}: ${inner.description}`;
  return JSON.stringify(scheme);
}

function AgentDetails(props: { agentId: string; agents: Agent[] }) {
  const cardPath = `/api/agents/v1/a2a/${enc(props.agentId)}/.well-known/agent-card.json`;
  const [loaded, reload] = useLoad(() => api<AgentCardView>(cardPath), [cardPath]);
  const [llms] = useLoad(() => api<NameMap>('/api/agents/v1/llm-providers'), []);
  const [choice] = useLoad(() => consoleApi<ScenarioChoice>(`agents/${enc(props.agentId)}`), [props.agentId]);
  const picks = choice.state === 'ready' ? choice.value : undefined;
  const agent = props.agents.find((a) => a.agentId === props.agentId);
  const playground = `/console/playground?agent=${enc(props.agentId)}`;
  return (
    <article class="agent">
      <h2>{agent?.name ?? props.agentId}</h2>
      {agent?.description ? <p class="lead">{agent.description}</p> : null}
      <dl class="facts">
        <dt>Agent id</dt>
        <dd>
          <code>{props.agentId}</code>
        </dd>
        {agent?.createdByName ? (
          <>
            <dt>Created by</dt>
            <dd>
              {agent.createdByName}, {agent.createdDate}
            </dd>
          </>
        ) : null}
        <dt>Try it</dt>
        <dd>
          <a href={playground}>Chat with it in the Playground</a>
        </dd>
      </dl>
      <Show loaded={loaded} what="the agent card" retry={reload}>
        {(card) => (
          <>
            <section aria-labelledby="agent-reach">
              <h3 id="agent-reach">How to reach it (A2A)</h3>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Transport</th>
                    <th scope="col">A2A protocol</th>
                  </tr>
                </thead>
                <tbody>
                  {interfacesOf(card).map((i) => (
                    <tr key={i.url + i.transport}>
                      <td>
                        <code>{i.url}</code>
                      </td>
                      <td>{i.transport}</td>
                      <td>{i.version}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <dl class="facts">
                <dt>Agent card</dt>
                <dd>
                  <code>{card.documentationUrl ?? cardPath}</code> (also at the older{' '}
                  <code>.well-known/agent.json</code>)
                </dd>
                <dt>Credentials</dt>
                <dd>
                  {Object.values(card.securitySchemes ?? {}).map((scheme, i) => (
                    <div key={i}>
                      <code>{schemeText(scheme)}</code>
                    </div>
                  ))}
                </dd>
                {card.provider?.organization ? (
                  <>
                    <dt>Provider</dt>
                    <dd>
                      {card.provider.organization}
                      {card.version ? `, agent version ${card.version}` : ''}
                    </dd>
                  </>
                ) : null}
              </dl>
            </section>
            <section aria-labelledby="agent-capabilities">
              <h3 id="agent-capabilities">Capabilities</h3>
              <dl class="facts" data-testid="agent-capabilities">
                <dt>Streaming</dt>
                <dd>
                  {yesNo(card.capabilities?.streaming)}
                  {card.capabilities?.streaming
                    ? `: each task update is sent as it happens (${card.supportedInterfaces ? 'SendStreamingMessage' : 'message/stream'}), then the answer`
                    : ''}
                </dd>
                <dt>Push notifications</dt>
                <dd>{yesNo(card.capabilities?.pushNotifications)}</dd>
                {card.capabilities?.stateTransitionHistory !== undefined ? (
                  <>
                    <dt>State transition history</dt>
                    <dd>{yesNo(card.capabilities.stateTransitionHistory)}</dd>
                  </>
                ) : null}
                <dt>Takes</dt>
                <dd>{(card.defaultInputModes ?? []).join(', ')}</dd>
                <dt>Gives</dt>
                <dd>{(card.defaultOutputModes ?? []).join(', ')}</dd>
              </dl>
              <h4>Extensions</h4>
              {(card.capabilities?.extensions ?? []).length === 0 ? (
                <p class="muted">None.</p>
              ) : (
                <ul class="extensions">
                  {(card.capabilities?.extensions ?? []).map((e) => (
                    <li key={e.uri}>
                      <code data-testid="extension-uri">{e.uri}</code> ({e.required ? 'required' : 'optional'}
                      )<div>{e.description}</div>
                      {e.uri?.includes('provided-values') ? (
                        <div class="muted">
                          The provided-values extension: context values (a customer id, say) go with a message
                          as a data part marked with this URI, and the request names the URI in its{' '}
                          <code>X-A2A-Extensions</code> header (<code>A2A-Extensions</code> in A2A 1.0). The
                          Playground's “Context values” field sends them this way.
                        </div>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="agent-scenarios">
              <h3 id="agent-scenarios">Scenarios ({card.skills?.length ?? agent?.scenariosCount ?? 0})</h3>
              <p class="muted">
                A scenario is one thing the agent knows how to do; its card lists each as a skill. For every
                message the agent picks the scenario with the most of its words in the message (the first task
                update, <code>SCENARIO_SELECTED</code>, names it), calls that scenario's tools and answers; a
                follow-up that names an order, an email or a version may stay in the scenario before it. A
                message that matches none{' '}
                {picks?.asksWhenUnmatched
                  ? 'gets a question back: which of these scenarios is meant (the task waits for the reply).'
                  : 'gets a list of what the agent can do.'}
              </p>
              <ul class="scenarios">
                {(card.skills ?? []).map((skill) => (
                  <li key={skill.id} class="scenario">
                    <h4>
                      {skill.name} <code class="muted">{skill.id}</code>
                    </h4>
                    <p>{skill.description}</p>
                    <ScenarioWords keywords={picks?.scenarios.find((p) => p.id === skill.id)?.keywords} />
                    {skill.tags?.length ? (
                      <p class="tags">
                        {skill.tags.map((t) => (
                          <span key={t} class="tag">
                            {t}
                          </span>
                        ))}
                      </p>
                    ) : null}
                    {skill.examples?.length ? (
                      <>
                        <p class="muted">For example (opens the Playground with it):</p>
                        <ul class="examples">
                          {skill.examples.map((example) => (
                            <li key={example}>
                              <a href={`${playground}&message=${enc(example)}`}>“{example}”</a>
                            </li>
                          ))}
                        </ul>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
            <details>
              <summary>The agent card as JSON</summary>
              <Json value={card} label="Agent card as JSON" />
            </details>
          </>
        )}
      </Show>
      <h3>LLM providers of the account</h3>
      <Show loaded={llms} what="the LLM providers">
        {(map) => <NameTable map={map} idLabel="LLM id" empty="The account has no LLM providers." />}
      </Show>
    </article>
  );
}

/** The word beginnings that pick a scenario. */
function ScenarioWords(props: { keywords: string[] | undefined }) {
  if (!props.keywords?.length) return null;
  return (
    <p class="words">
      Picked by words beginning with:{' '}
      {props.keywords.map((k, i) => (
        <span key={k}>
          {i > 0 ? ', ' : ''}
          <q>{k}</q>
        </span>
      ))}
    </p>
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
