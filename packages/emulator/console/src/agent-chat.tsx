import type { MessageWithParts } from '@dataworkz/context-values';
import {
  type ContextValues,
  EXTENSIONS_HEADER,
  extensionsHeader,
  findProvidedValuesUri,
  withProvidedValues,
} from '@dataworkz/context-values';
import { createParser } from 'eventsource-parser';
import { useRef, useState } from 'preact/hooks';
import { api, apiUrl, enc, messageOf, noteRefusal, withKey } from './api.js';
import { Json, Show, useLoad } from './load.js';
import type { Agent } from './service-types.js';

/** One task update as it streamed: a `SVC_STATUS_UPDATE` step, or a state change. */
interface Step {
  type: string;
  message?: string;
  scenario?: string;
  tool?: string;
}

interface Turn {
  question: string;
  contextValues?: ContextValues;
  steps: Step[];
  state: string;
  answer?: string;
  scenario?: string;
  problem?: string;
}

type Part = {
  kind?: string;
  text?: string;
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
};

interface StreamResult {
  kind?: string;
  id?: string;
  taskId?: string;
  contextId?: string;
  final?: boolean;
  status?: { state?: string; message?: { parts?: Part[]; metadata?: Record<string, unknown> } };
}

/** Reads a JSON object of context values; throws a message to show when it is not one. */
function parseContextValues(text: string): ContextValues | undefined {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('Context values must be a JSON object, e.g. {"customerId": "C-100"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('Context values must be a JSON object, e.g. {"customerId": "C-100"}');
  }
  return parsed as ContextValues;
}

function AgentChat(props: { agents: Agent[] }) {
  // An agent's page links here with the agent (and an example message) picked.
  const asked = new URLSearchParams(location.search);
  const [agentId, setAgentId] = useState(
    props.agents.find((a) => a.agentId === asked.get('agent'))?.agentId ?? props.agents[0]?.agentId ?? '',
  );
  const [text, setText] = useState(asked.get('message') ?? '');
  const [valuesText, setValuesText] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  // The conversation continues in the agent's context, and in its task while it waits for input.
  const thread = useRef<{ contextId?: string | undefined; taskId?: string | undefined }>({});
  const cardUrl = `/api/agents/v1/a2a/${enc(agentId)}/.well-known/agent-card.json`;
  const [card] = useLoad(() => api<Record<string, unknown>>(cardUrl), [cardUrl]);

  function update(index: number, change: (turn: Turn) => Turn) {
    setTurns((all) => all.map((t, i) => (i === index ? change(t) : t)));
  }

  async function send(event: Event) {
    event.preventDefault();
    if (busy) return;
    const question = text.trim();
    if (question === '') {
      setProblem('Type a message first.');
      return;
    }
    let contextValues: ContextValues | undefined;
    try {
      contextValues = parseContextValues(valuesText);
    } catch (error) {
      setProblem(messageOf(error));
      return;
    }
    setProblem(undefined);
    setText('');
    setBusy(true);
    const index = turns.length;
    setTurns((all) => [
      ...all,
      { question, ...(contextValues ? { contextValues } : {}), steps: [], state: 'sent' },
    ]);
    const uri = card.state === 'ready' ? findProvidedValuesUri(card.value) : undefined;
    let message: MessageWithParts & Record<string, unknown> = {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text: question }],
      ...(thread.current.contextId ? { contextId: thread.current.contextId } : {}),
      ...(thread.current.taskId ? { taskId: thread.current.taskId } : {}),
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (contextValues && uri) {
      message = withProvidedValues(message, contextValues, uri);
      headers[EXTENSIONS_HEADER] = extensionsHeader(uri);
    }
    try {
      await stream(agentId, message, headers, (result) => {
        if (result.contextId) thread.current.contextId = result.contextId;
        const state = result.status?.state;
        const parts = result.status?.message?.parts ?? [];
        const steps: Step[] = parts
          .filter((p) => p.kind === 'data' && p.metadata?.type === 'SVC_STATUS_UPDATE')
          .map((p) => ({
            type: String(p.data?.type ?? 'STEP'),
            ...(typeof p.data?.message === 'string' ? { message: p.data.message } : {}),
            ...(typeof p.data?.scenario === 'string' ? { scenario: p.data.scenario } : {}),
            ...(typeof p.data?.tool === 'string' ? { tool: p.data.tool } : {}),
          }));
        const finalText = parts
          .filter((p) => p.kind === 'text')
          .map((p) => p.text ?? '')
          .join('');
        const done = result.final === true || state === 'input-required' || state === 'completed';
        thread.current.taskId = state === 'input-required' ? (result.taskId ?? result.id) : undefined;
        update(index, (t) => ({
          ...t,
          steps: [...t.steps, ...steps],
          state: state ?? t.state,
          ...(done && finalText ? { answer: finalText } : {}),
          ...(typeof result.status?.message?.metadata?.scenario === 'string'
            ? { scenario: result.status.message.metadata.scenario }
            : {}),
        }));
      });
    } catch (error) {
      thread.current.taskId = undefined;
      update(index, (t) => ({ ...t, state: 'failed', problem: messageOf(error) }));
    } finally {
      setBusy(false);
    }
  }

  if (props.agents.length === 0) return <p class="muted">No agents to chat with.</p>;
  return (
    <section aria-labelledby="chat-title" class="panel">
      <h2 id="chat-title">Chat with an agent</h2>
      <form onSubmit={send} class="stack">
        <div class="row">
          <label>
            Agent
            <select
              value={agentId}
              onChange={(e) => {
                setAgentId(e.currentTarget.value);
                setTurns([]);
                thread.current = {};
              }}
            >
              {props.agents.map((a) => (
                <option key={a.agentId} value={a.agentId}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <label class="grow">
            Context values (JSON, optional)
            <input
              value={valuesText}
              onInput={(e) => setValuesText(e.currentTarget.value)}
              placeholder='{"customerId": "C-100"}'
            />
          </label>
        </div>
        <Conversation turns={turns} />
        <div class="row grow">
          <label class="grow">
            Message (Enter sends)
            <input
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
              placeholder="Where is order 1001?"
              disabled={busy}
            />
          </label>
          <button type="submit" disabled={busy}>
            Send
          </button>
          {turns.length > 0 ? (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => {
                setTurns([]);
                thread.current = {};
              }}
            >
              New conversation
            </button>
          ) : null}
        </div>
        {problem ? (
          <p class="problem" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function Conversation(props: { turns: Turn[] }) {
  if (props.turns.length === 0) {
    return (
      <p class="muted">
        Ask something; each task update shows here as the agent streams it, then its answer.
      </p>
    );
  }
  return (
    <ol class="turns" aria-live="polite">
      {props.turns.map((turn, i) => (
        <li key={i} class="turn">
          <p class="question">
            <strong>You:</strong> {turn.question}
          </p>
          {turn.contextValues ? (
            <div class="sent-values">
              Context values sent: <Json value={turn.contextValues} label="Context values sent" />
            </div>
          ) : null}
          <ol class="steps" aria-label="Task updates">
            {turn.steps.map((s, j) => (
              <li key={j}>
                <span class="tag">{s.type}</span> {s.message}
                {s.tool ? <code class="tool">{s.tool}</code> : null}
              </li>
            ))}
          </ol>
          <p class="state">
            Task {turn.state}
            {turn.scenario ? `, scenario “${turn.scenario}”` : ''}
          </p>
          {turn.answer ? (
            <p class="agent-answer">
              <strong>Agent:</strong> <span data-testid="agent-answer">{turn.answer}</span>
            </p>
          ) : null}
          {turn.problem ? (
            <p class="problem" role="alert">
              {turn.problem}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** Sends `message/stream` and calls `onResult` with each streamed result; throws what went wrong. */
async function stream(
  agentId: string,
  message: MessageWithParts,
  headers: Record<string, string>,
  onResult: (result: StreamResult) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`/api/agents/v1/a2a/${enc(agentId)}/stream`), {
      method: 'POST',
      headers: withKey(headers),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message } }),
    });
  } catch {
    throw new Error('The emulator did not answer: a fault may have dropped the connection, or it stopped.');
  }
  if (!response.ok || !response.body) {
    noteRefusal(response.status);
    const body = await response.text();
    let reason = body;
    try {
      reason = (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      // Kept as text.
    }
    throw new Error(`${response.status}: ${reason || 'the stream was refused'}`);
  }
  let failure: string | undefined;
  const parser = createParser({
    onEvent(event) {
      let parsed: { result?: StreamResult; error?: { message?: string } };
      try {
        parsed = JSON.parse(event.data);
      } catch {
        failure = 'The stream sent an event that is not JSON (a fault may be switched on).';
        return;
      }
      if (parsed.error) failure = `The agent failed: ${parsed.error.message ?? 'unknown error'}`;
      else if (parsed.result) onResult(parsed.result);
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) parser.feed(next.value);
  } catch {
    throw new Error('The stream was cut before the agent finished (a fault may be switched on).');
  }
  if (failure) throw new Error(failure);
}

export function ChatSection() {
  const [agents, reload] = useLoad(() => api<Agent[]>('/api/agents/v1/'), []);
  return (
    <Show loaded={agents} what="the agents" retry={reload}>
      {(list) => <AgentChat agents={list} />}
    </Show>
  );
}
