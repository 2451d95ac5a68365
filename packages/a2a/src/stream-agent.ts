import {
  type Dataworkz,
  excerpt,
  InvalidParameterError,
  type Properties,
  serializeProperties,
} from '@dataworkz/client';
import { checkOptionKeys } from '@dataworkz/client/internal';
import {
  type ContextValues,
  extensionsHeader,
  snapshotContextValues,
  withProvidedValues,
} from '@dataworkz/context-values';
import { context } from '@opentelemetry/api';
import type { A2AMessage, A2APart } from './a2a-types.js';
import { AgentLink } from './agent.js';
import { openFollowed } from './follow.js';
import type { A2AProtocol } from './protocol.js';
import { type ResumeOptions, resumePolicy } from './resume.js';
import { AgentRun } from './run.js';
import type { RunConnection } from './run-reader.js';
import { RunTrace } from './run-trace.js';
import type { SdkFetchOptions } from './sdk/fetch.js';

// A log line about a skipped event quotes at most this much of it.
const SKIPPED_LINE_CHARS = 200;

/** Default idle time-out: the service can think for minutes between events. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** Default cap on one event's size. */
export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

/** What `streamAgent` sends (the message, its context values), and how the run is bounded. */
export interface StreamAgentOptions {
  /** The user's text (sent as the first part). */
  text?: string | undefined;
  /** Further A2A parts (files, data). */
  parts?: A2APart[] | undefined;
  /** The LLM configuration to use; else the agent's, else the account default. */
  llmId?: string | undefined;
  /** Extra execution properties: an object of flags or `key=value;key=value`. */
  properties?: Properties | undefined;
  /** Context variables for the agent, sent through the provided-values extension. */
  contextValues?: ContextValues | undefined;
  /** The provided-values extension URI; read from the agent card when not given. */
  extensionUri?: string | undefined;
  /** Further A2A extension URIs to activate. */
  extensions?: string[] | undefined;
  /** Continue a conversation: the `contextId` (and `taskId`) of an earlier turn. */
  contextId?: string | undefined;
  taskId?: string | undefined;
  /** The message id (default: a random UUID). */
  messageId?: string | undefined;
  /** Message metadata, passed through. */
  metadata?: { [key: string]: unknown } | undefined;
  /** Aborting closes the connection; the run rejects with APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Longest wait for the response headers, in ms, before APIConnectionTimeoutError (default: `timeout`). */
  headersTimeoutMs?: number | undefined;
  /** Longest silence between chunks of the stream before StreamIdleTimeoutError, in ms (0: none). */
  idleTimeoutMs?: number | undefined;
  /** Longest time for the whole run, in ms, before APIConnectionTimeoutError (default: none). */
  timeout?: number | undefined;
  /** Largest single event before StreamEventTooLargeError. */
  maxEventBytes?: number | undefined;
  /** Get back to the task when the stream breaks, marking the gap with a `resumed` event; on by default. */
  resume?: boolean | ResumeOptions | undefined;
  /** The A2A version: `'auto'` (the default) follows the agent card, `'0.3'` or `'1.0'` force one. */
  protocol?: A2AProtocol | undefined;
}

/** Every key of StreamAgentOptions: the compiler fails here when the interface gains one. */
const streamAgentOptionKeys = Object.keys({
  text: true,
  parts: true,
  llmId: true,
  properties: true,
  contextValues: true,
  extensionUri: true,
  extensions: true,
  contextId: true,
  taskId: true,
  messageId: true,
  metadata: true,
  signal: true,
  headersTimeoutMs: true,
  idleTimeoutMs: true,
  timeout: true,
  maxEventBytes: true,
  resume: true,
  protocol: true,
} satisfies Record<keyof StreamAgentOptions, true>);

function checked(name: string, value: number | undefined, positive: boolean): number | undefined {
  if (value === undefined || (typeof value === 'number' && (positive ? value > 0 : value >= 0))) return value;
  const what = positive ? 'a positive number of milliseconds' : 'a non-negative number';
  throw new InvalidParameterError(name, `${name} must be ${what}.`);
}

/**
 * Streams a message to an agent over A2A (`message/stream`). Returns at once; the request is sent
 * when the run is iterated or `finalAnswer()` is called. Invalid options throw here.
 *
 * ```ts
 * const run = streamAgent(dw, agentId, { text: 'Where is order 1001?', contextValues: { userName: 'Ada' } });
 * for await (const event of run) if (event.type === 'task-update') console.log(event.data);
 * const { answer } = await run.finalAnswer();
 * ```
 */
export function streamAgent(dw: Dataworkz, agentId: string, options: StreamAgentOptions): AgentRun {
  return startRun(dw, agentId, options, undefined);
}

/**
 * A run that follows a task already running (or ended) instead of sending a message: it resubscribes
 * to the task (`tasks/resubscribe`), whose first event is the task as it stands, with the options of
 * the run that started it (its message's text and parts are not sent again).
 */
export function followTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: StreamAgentOptions,
): AgentRun {
  if (typeof taskId !== 'string' || taskId === '') {
    throw new InvalidParameterError('taskId', 'taskId must be a non-empty string.');
  }
  return startRun(dw, agentId, options, taskId);
}

function startRun(
  dw: Dataworkz,
  agentId: string,
  options: StreamAgentOptions,
  followed: string | undefined,
): AgentRun {
  // A stray key (a misspelt option, a whole result spread in) is refused, not ignored.
  checkOptionKeys(options, streamAgentOptionKeys, 'streamAgent');
  const query = { llmId: options.llmId, properties: serializeProperties(options.properties) };
  const agent = new AgentLink(dw, agentId, options.protocol, query);
  optionalId('llmId', options.llmId);
  // Read once: what is sent is what was checked, whatever getters do later.
  const { contextValues: given } = options;
  const contextValues = given === undefined ? undefined : snapshotContextValues(given, 'contextValues');
  // A followed task's message was sent by the run that started it.
  const message = followed === undefined ? userMessage(options) : undefined;
  const idleTimeoutMs = checked('idleTimeoutMs', options.idleTimeoutMs, false) ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxEventBytes = checked('maxEventBytes', options.maxEventBytes, false) ?? DEFAULT_MAX_EVENT_BYTES;
  const headersTimeoutMs = checked('headersTimeoutMs', options.headersTimeoutMs, true);
  const timeoutMs = checked('timeout', options.timeout, true);
  const resume = resumePolicy(options.resume);
  // Server text is redacted (of the credential the latest request sent) before it is cut.
  const skipped = (what: string) =>
    dw.logger.debug(excerpt(streamFetch.redact(`agent stream: skipped ${what}`), SKIPPED_LINE_CHARS));
  const runTrace = new RunTrace(agent, options.text);
  const streamFetch: SdkFetchOptions = {
    traceContext: () => runTrace.context,
    operation: 'streamAgent',
    timeout: headersTimeoutMs,
    limits: { idleTimeoutMs, maxEventBytes, skipped },
    redact: dw.redact,
  };
  // Settled by the message's request; a resubscription sends the same extensions.
  let extensions = '';
  // Inside the run's trace context, so the card reads and task calls are the run's children too.
  const connection: RunConnection = {
    open: (signal) =>
      context.with(runTrace.context, async () => {
        if (message === undefined) {
          extensions = extensionsHeader(undefined, options.extensions);
          return openFollowed(agent, streamFetch, followed as string, signal, extensions);
        }
        let sent: A2AMessage = message;
        let extensionUri: string | undefined;
        if (contextValues !== undefined) {
          extensionUri = options.extensionUri ?? (await agent.providedValuesUri(signal));
          sent = withProvidedValues(message, contextValues, extensionUri);
        }
        extensions = extensionsHeader(extensionUri, options.extensions);
        // The first event tells whether the agent took the message in this version.
        return agent.send(signal, async () => {
          const events = agent.transport(streamFetch, true).stream(sent, { signal, extensions });
          return { events, first: await events.next() };
        });
      }),
    resubscribe: (taskId, signal) =>
      agent.transport(streamFetch, true).resubscribe(taskId, { signal, extensions }),
    getTask: (taskId, signal) =>
      context.with(runTrace.context, () => agent.task('getTask', { id: taskId }, signal)),
    redact: (value) => streamFetch.redact(value),
  };

  return new AgentRun(connection, { signal: options.signal, timeoutMs, resume, trace: runTrace });
}

function optionalId(name: string, value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'string' && value !== '')) return value;
  throw new InvalidParameterError(name, `${name} must be a non-empty string.`);
}

// randomUUID is missing in browsers' insecure contexts; getRandomValues is everywhere.
function newMessageId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function userMessage(input: StreamAgentOptions): A2AMessage {
  if (input.text !== undefined && typeof input.text !== 'string') {
    throw new InvalidParameterError('text', 'text must be a string.');
  }
  if (input.parts !== undefined && !Array.isArray(input.parts)) {
    throw new InvalidParameterError('parts', 'parts must be an array of A2A parts.');
  }
  const parts: A2APart[] = [...(input.parts ?? [])];
  if (input.text) parts.unshift({ kind: 'text', text: input.text });
  if (parts.length === 0) {
    throw new InvalidParameterError('text', 'A message needs text or at least one part.');
  }
  const messageId = optionalId('messageId', input.messageId) ?? newMessageId();
  const message: A2AMessage = { kind: 'message', role: 'user', messageId, parts };
  const contextId = optionalId('contextId', input.contextId);
  const taskId = optionalId('taskId', input.taskId);
  if (contextId) message.contextId = contextId;
  if (taskId) message.taskId = taskId;
  if (input.metadata) message.metadata = input.metadata;
  return message;
}
