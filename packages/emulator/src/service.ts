import { providedValuesUri } from './a2a/provided-values.js';
import { A2AServer } from './a2a/stream.js';
import { getAgentCard, listAgentLlmProviders, listAgents, respondToAgent } from './agents/handlers.js';
import { Replayer } from './cassette/replay.js';
import type { ExchangeLog } from './console/exchange-log.js';
import type { Dataset } from './dataset.js';
import type { EmbeddingModel } from './embedding/model.js';
import { AccessGuard } from './http/access-guard.js';
import type { Answer } from './http/answer.js';
import { Authenticator } from './http/auth.js';
import type { ReceivedBody } from './http/body.js';
import { Closing } from './http/closing.js';
import { control, controlPrefix } from './http/control.js';
import { corsHeaders } from './http/cors.js';
import { errorBody, HttpError } from './http/errors.js';
import type { Exchange } from './http/exchange.js';
import { FaultList } from './http/faults.js';
import { Query } from './http/query.js';
import { RateLimiter } from './http/rate-limit.js';
import { RequestRecorder } from './http/recorder.js';
import { Outlet, Reply } from './http/reply.js';
import { lookupRoute, type OperationId } from './http/router.js';
import { callAgentLegacy } from './legacy/call-agent.js';
import { type Limits, resolveLimits } from './limits.js';
import { type Log, toLog } from './logger.js';
import { fromUtf8 } from './neutral/bytes.js';
import { randomToken } from './neutral/crypto.js';
import type { EmulatorOptions } from './options.js';
import {
  answerQnaQuestion,
  answerQnaQuestionWithHistory,
  getQnaDocument,
  getQnaSystem,
  listQnaFilters,
  listQnaLlmProviders,
  listQnaSystems,
  searchQnaSystem,
  searchQnaSystemWithHistory,
} from './qna/handlers.js';
import { getQnaQuestion, listQnaQuestionHistory } from './qna/history-handlers.js';
import { QuestionHistory } from './qna/question-history.js';
import { collectState, type EmulatorState, restoreState, type StateParts } from './saved-state/snapshot.js';
import { seededDataset } from './seed.js';
import { ServiceState } from './state.js';

/** One request as an adapter (node:http, or a Fetch API `Request`) hands it to the service. */
interface Incoming {
  method: string;
  /** The request target as sent: the path and the query, if any. */
  target: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** `http://host:port` as the caller reached the emulator, for links in answers. */
  origin: string;
  /** Whether the peer is on this machine (see `Caller.local`): code in this process is. */
  local: boolean;
  /** Reads the body, keeping at most `limit` bytes. */
  readBody(limit: number): Promise<ReceivedBody> | ReceivedBody;
  /** Calls `listener` once the client goes away (closed socket, aborted request). */
  onGone(listener: () => void): void;
}

/** The emulated service behind every adapter: state, credentials, faults, recorder and the A2A server. */
export interface Service {
  readonly apiKey: string;
  readonly extensionUri: string;
  readonly limits: Limits;
  readonly log: Log;
  readonly recorder: RequestRecorder;
  readonly faults: FaultList;
  /** Who may use the console and the control routes. */
  readonly guard: AccessGuard;
  /** The rate limit in force: the configured one until a console sets another. */
  readonly rateLimit: RateLimitSwitch;
  /** Settles once the state is built; requests wait for it. */
  readonly ready: Promise<void>;
  /** A2A streams open right now, emulated or replayed. */
  readonly openStreams: number;
  /**
   * Calls `listener` after each change to the faults in force (added, used, cleared), the rate limit
   * or the open streams, until the returned function is called. It must not throw.
   */
  onChange(listener: () => void): () => void;
  /** How an agent picks its scenarios (for the console); a 404 HttpError for an unknown id. */
  scenarioChoice(agentId: string): Promise<ScenarioChoice>;
  /** Answers one request; rejects with a TypeError when a fault drops the connection before the headers. */
  respond(incoming: Incoming): Promise<Answer>;
  /** Ends every exchange in progress (open streams first of all); settles once each has finished. */
  closeAll(): Promise<void>;
  /** What a session created (and the systems served), as an export writes it. */
  exportState(): Promise<EmulatorState>;
  /** Restores an exported state but its systems (those are read before the state is built). */
  importState(state: EmulatorState): Promise<void>;
}

/** How an agent picks a scenario for a message. */
interface ScenarioChoice {
  /** Whether a message no scenario matches gets a question back (which scenario?), else what the agent can do. */
  asksWhenUnmatched: boolean;
  /** Each scenario with the word beginnings that select it (the one with most matches wins). */
  scenarios: { id: string; name: string; keywords: string[] }[];
}

/** The rate limit of API requests per credential, changed while the emulator runs. */
interface RateLimitSwitch {
  /** Requests per second and burst in force (`Infinity` for none). */
  readonly current: { perSecond: number; burst: number };
  set(perSecond: number, burst: number): void;
  /** Back to the limit the emulator was started with. */
  reset(): void;
}

/** Adds to the seeded dataset before the state is built (the node:http adapter's `--data` folder). */
export type DatasetStep = (dataset: Dataset) => Promise<void>;

/**
 * Builds the service from options. What needs awaiting (data to load, indexes to build) is one
 * step, `ready`, that requests wait for; credentials, faults and the recorder exist at once.
 */
export function createService(
  options: EmulatorOptions,
  extendDataset?: DatasetStep,
  exchanges?: ExchangeLog,
  sentenceEncoder?: Promise<EmbeddingModel | undefined>,
  /** Writes the state to the export folder now (the node:http adapter's `exportOnExit`), listing the files. */
  exportNow?: () => Promise<string[]>,
): Service {
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [`dwz_${randomToken(18)}`];
  const limits = resolveLimits(options.limits);
  const log = toLog(options.logger, [...apiKeys, options.jwtSecret]);
  const extensionUri = providedValuesUri(options.extensionBase ?? 'https://dataworkz.com');
  const auth = new Authenticator({
    apiKeys,
    ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
    ...(options.jwks ? { jwks: options.jwks } : {}),
    allowJwtWithoutExp: options.allowJwtWithoutExp ?? false,
  });
  const guard = new AccessGuard(auth);
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const faults = new FaultList(changed);
  for (const rule of options.faults ?? []) faults.add(rule);
  const recorder = new RequestRecorder(limits);
  let rateLimiter = new RateLimiter(limits.rateLimit, limits.rateLimitBurst);
  let rateLimitInForce = { perSecond: limits.rateLimit, burst: limits.rateLimitBurst };
  const rateLimit: RateLimitSwitch = {
    get current() {
      return { ...rateLimitInForce };
    },
    set(perSecond, burst) {
      rateLimitInForce = { perSecond, burst };
      rateLimiter = new RateLimiter(perSecond, burst);
      changed();
    },
    reset() {
      rateLimit.set(limits.rateLimit, limits.rateLimitBurst);
    },
  };
  const questions = new QuestionHistory(limits);
  // A cassette file has been read into an object by the node:http adapter before it gets here.
  const replayer =
    typeof options.replay === 'object'
      ? new Replayer(options.replay, {
          speed: options.replaySpeed,
          ignore: options.replayIgnore,
          limits,
          streamsChanged: changed,
        })
      : undefined;
  // Each exchange in progress, with the promise of its end.
  const active = new Map<Closing, Promise<void>>();
  let requestCounter = 0;
  let a2a: A2AServer | undefined;
  let builtState: ServiceState | undefined;
  const built = (async () => {
    const dataset = seededDataset({ noDefaultLlm: options.noDefaultLlm ?? false });
    if (extendDataset) await extendDataset(dataset);
    const state = await ServiceState.create(dataset, {
      embed: options.embed,
      sentenceEncoder: await sentenceEncoder,
      warm: options.warmEncoder,
    });
    a2a = new A2AServer(
      state,
      extensionUri,
      {
        ...limits,
        stepDelayMs: options.agentStepDelayMs ?? 0,
        answerChunkChars: options.answerArtifactChunkChars ?? 0,
      },
      log,
      options.a2aVersion ?? '0.3',
      changed,
    );
    builtState = state;
    return operationsFor(state, a2a, questions, limits);
  })();
  const ready = built.then(() => undefined);
  // Callers see a failed setup through `ready` (and every request); it is not also an unhandled rejection.
  ready.catch(() => {});

  async function run(incoming: Incoming, path: string, rawQuery: string, plain: Reply, closing: Closing) {
    const operations = await built;
    const { method, headers } = incoming;
    let reply = plain;
    try {
      // Checked first, refused only after faults apply: faults reach callers with any credentials.
      const refusal = await auth.check(headers.authorization).then(
        () => undefined,
        (error: unknown) => error,
      );
      const isControl = path.startsWith(controlPrefix);
      const received = await incoming.readBody(limits.maxBodyBytes);
      if (replayer && path.startsWith('/api/') && method !== 'OPTIONS') {
        if (received.refusal) throw received.refusal;
        // The credentials emulating asks for: code that sends a wrong key fails on replay as it would there.
        if (refusal !== undefined) throw refusal;
        recorder.record(method, path, rawQuery, headers, received.bytes, received.size);
        const replayed = replayer.replay(method, incoming.target, fromUtf8(received.bytes), (listener) =>
          closing.on(listener),
        );
        if (replayed.answer) {
          reply.answer(replayed.answer);
          return;
        }
        if (options.replayFallback !== 'emulate') {
          reply.json(replayed.miss.status, replayed.miss.body);
          return;
        }
      }
      // Only requests with valid credentials are kept: anyone can send the others, as large as they like.
      if (!isControl && refusal === undefined) {
        recorder.record(method, path, rawQuery, headers, received.bytes, received.size);
      }
      if (received.refusal) throw received.refusal;
      const body = fromUtf8(received.bytes);
      if (method === 'OPTIONS') {
        reply.empty(204, { allow: 'GET, POST, DELETE, OPTIONS' });
        return;
      }
      if (isControl) {
        const refused = await guard.refusal({ local: incoming.local, method, headers }, 'control');
        if (refused !== undefined) throw refused;
        if (path === '/_emulator/state' && method === 'GET') {
          reply.json(200, collectState(await stateParts()));
          return;
        }
        if (path === '/_emulator/state/export' && method === 'POST') {
          if (!exportNow) {
            throw new HttpError(
              409,
              'No export folder: start the emulator with --export-on-exit <dir> (or read GET /_emulator/state)',
              {},
              'NO_EXPORT_FOLDER',
            );
          }
          reply.json(200, { files: await exportNow() });
          return;
        }
        control(method, path, body, reply, faults, recorder, limits.maxJsonDepth);
        return;
      }
      const found = lookupRoute(method, path);
      const fault = path.startsWith('/api/') ? faults.take(found.operationId ?? '') : undefined;
      if (fault) {
        if (fault.latencyMs) await delay(fault.latencyMs, closing);
        if (fault.drop === 'before-headers') {
          reply.drop();
          return;
        }
        reply = reply.withFault(fault);
        if (fault.status !== undefined || fault.body !== undefined) {
          const status = fault.status ?? 200;
          reply.send(
            status,
            'application/json',
            fault.body ?? JSON.stringify(errorBody(status, 'Injected fault', path, 'INJECTED_FAULT')),
          );
          return;
        }
      }
      if (refusal !== undefined) throw refusal;
      if (path.startsWith('/api/')) rateLimiter.take(headers.authorization ?? '');
      const resolved = found.resolve();
      await operations[resolved.operationId]({
        headers,
        origin: incoming.origin,
        path,
        params: resolved.params,
        query: new Query(rawQuery, limits.maxTextLength),
        body,
        reply,
        onClose: (listener) => closing.on(listener),
      });
    } catch (error) {
      answerFailure(reply, method, path, error);
    }
  }

  /** Answers a request that failed, through a plain reply: the faulted one may be what failed. */
  function answerFailure(reply: Reply, method: string, path: string, error: unknown): void {
    if (reply.finished) {
      reply.drop();
      return;
    }
    const plain = reply.plain();
    if (error instanceof HttpError) {
      plain.json(error.status, errorBody(error.status, error.message, path, error.code), error.headers);
    } else {
      // Unexpected: answer without details (they could carry request data) and keep serving.
      log.error(`The emulator failed to handle ${method} ${path}`, error);
      plain.json(500, errorBody(500, 'The emulator failed to handle the request', path, 'INTERNAL'));
    }
  }

  async function stateParts(): Promise<StateParts> {
    await built;
    const state = builtState as ServiceState;
    const server = a2a as A2AServer;
    return {
      systems: state.dataset.systems,
      conversations: server.conversations,
      tasks: server.tasks,
      questions,
      faults,
      orders: state.orders,
    };
  }

  return {
    apiKey: apiKeys[0] ?? '',
    extensionUri,
    limits,
    log,
    recorder,
    faults,
    guard,
    rateLimit,
    ready,
    get openStreams() {
      return (a2a?.openStreams ?? 0) + (replayer?.openStreams ?? 0);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async scenarioChoice(agentId) {
      await built;
      const agent = (builtState as ServiceState).agent(agentId);
      return {
        asksWhenUnmatched: agent.asksWhenUnmatched ?? false,
        scenarios: agent.scenarios.map((s) => ({ id: s.id, name: s.name, keywords: [...s.keywords] })),
      };
    },
    respond(given) {
      let incoming = given;
      const { method, target } = incoming;
      const at = target.indexOf('?');
      const path = at < 0 ? target : target.slice(0, at);
      const rawQuery = at < 0 ? '' : target.slice(at + 1);
      requestCounter += 1;
      const requestId = `req-${requestCounter}`;
      const watch = exchanges?.begin(requestId, method, target, incoming.headers);
      if (watch) {
        incoming = {
          ...given,
          readBody: async (limit) => {
            const received = await given.readBody(limit);
            watch.requestBody(received.bytes, received.size);
            return received;
          },
        };
      }
      const baseHeaders = {
        'x-request-id': requestId,
        ...corsHeaders(options.cors, method, incoming.headers.origin),
      };
      const closing = new Closing();
      incoming.onGone(() => closing.close());
      const outlet = new Outlet(closing);
      const reply = new Reply(outlet, baseHeaders);
      const ended = run(incoming, path, rawQuery, reply, closing)
        .catch((error: unknown) => log.error(`The emulator could not answer ${method} ${path}`, error))
        // A request that ends unanswered (its client left first) settles as a lost connection.
        .finally(() => {
          active.delete(closing);
          if (!outlet.started) outlet.refuse();
        });
      active.set(closing, ended);
      if (!watch) return outlet.response;
      return outlet.response.then(
        (answer) => watch.answered(answer),
        (error: unknown) => {
          watch.dropped();
          throw error;
        },
      );
    },
    async exportState() {
      return collectState(await stateParts());
    },
    async importState(saved) {
      restoreState(await stateParts(), saved);
    },
    async closeAll() {
      const ends = [...active];
      for (const [closing] of ends) closing.close();
      await Promise.all(ends.map(([, ended]) => ended));
    },
  };
}

type Operations = Record<OperationId, (ex: Exchange) => void | Promise<void>>;

function operationsFor(
  state: ServiceState,
  a2a: A2AServer,
  questions: QuestionHistory,
  limits: Limits,
): Operations {
  return {
    listAgents: (ex) => listAgents(state, ex),
    respondToAgent: (ex) => respondToAgent(state, ex, limits),
    listAgentLlmProviders: (ex) => listAgentLlmProviders(state, ex),
    getAgentCardLegacy: (ex) => getAgentCard(state, ex, a2a),
    getAgentCard: (ex) => getAgentCard(state, ex, a2a),
    streamAgent: (ex) => a2a.handle(ex),
    listQnaSystems: (ex) => listQnaSystems(state, ex),
    getQnaSystem: (ex) => getQnaSystem(state, ex),
    listQnaLlmProviders: (ex) => listQnaLlmProviders(state, ex),
    searchQnaSystem: (ex) => searchQnaSystem(state, ex),
    answerQnaQuestion: (ex) => answerQnaQuestion(state, ex, questions),
    listQnaFilters: (ex) => listQnaFilters(state, ex),
    getQnaDocument: (ex) => getQnaDocument(state, ex),
    searchQnaSystemWithHistory: (ex) => searchQnaSystemWithHistory(state, ex, limits),
    answerQnaQuestionWithHistory: (ex) => answerQnaQuestionWithHistory(state, ex, questions, limits),
    listQnaQuestionHistory: (ex) => listQnaQuestionHistory(state, ex, questions),
    getQnaQuestion: (ex) => getQnaQuestion(state, ex, questions),
    callAgentLegacy: (ex) => callAgentLegacy(state, ex, limits),
  };
}

/**
 * Waits `ms`, or less if the exchange ends first. The timer holds the process open, as a request in
 * flight to a slow server does: through `createEmulator().fetch` nothing else may (the client's own
 * time-out timer does not), and the process would end with the call unsettled.
 */
function delay(ms: number, closing: Closing): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    closing.on(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
