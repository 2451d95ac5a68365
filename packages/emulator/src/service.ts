import { A2AServer } from './a2a/stream.js';
import { getAgentCard, listAgentLlmProviders, listAgents, respondToAgent } from './agents/handlers.js';
import type { ContentDecoder } from './capture/body.js';
import { checkCassette } from './cassette/check.js';
import type { Replayer } from './cassette/replay.js';
import type { ExchangeLog } from './console/exchange-log.js';
import type { Asset } from './console/page.js';
import type { ControlContext, RateLimitSwitch } from './control/context.js';
import type { ModeStatus, Overview, ScenarioChoice } from './control/types.js';
import type { Dataset } from './dataset.js';
import type { EmbeddingModel } from './embedding/model.js';
import { AccessGuard } from './http/access-guard.js';
import type { Answer } from './http/answer.js';
import { Authenticator } from './http/auth.js';
import { FaultList } from './http/faults.js';
import { RateLimiter } from './http/rate-limit.js';
import { RequestRecorder } from './http/recorder.js';
import { operationIds } from './http/router.js';
import { StreamSlots } from './http/stream-slots.js';
import { callAgentLegacy } from './legacy/call-agent.js';
import type { Limits } from './limits.js';
import type { Log } from './logger.js';
import {
  createPipeline,
  type Incoming,
  type Mode,
  type Operations,
  type PipelineListeners,
} from './pipeline.js';
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
import {
  collectState,
  type EmulatorState,
  resetState,
  restoreState,
  type StateParts,
} from './saved-state/snapshot.js';
import { seededDataset } from './seed.js';
import type { Settings } from './settings.js';
import { ServiceState } from './state.js';

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
  /** Settles once the state is built; requests wait for it. */
  readonly ready: Promise<void>;
  /** A2A streams open right now, emulated or replayed. */
  readonly openStreams: number;
  /** Answers one request; rejects with a TypeError when a fault drops the connection before the headers. */
  respond(incoming: Incoming): Promise<Answer>;
  /** Ends every exchange in progress (open streams first of all); settles once each has finished. */
  closeAll(): Promise<void>;
  /** What a session created (and the systems served), as an export writes it. */
  exportState(): Promise<EmulatorState>;
  /** Restores an exported state but its systems (those are read before the state is built). */
  importState(state: EmulatorState): Promise<void>;
}

/** Adds to the seeded dataset before the state is built (the node:http adapter's `--data` folder). */
export type DatasetStep = (dataset: Dataset) => Promise<void>;

/** What an adapter adds to the service: the node:http one its files, its console and its recording. */
export interface ServiceAdditions {
  /** How this runtime decodes a body's content coding, for the capture of each exchange. */
  decode?: ContentDecoder | undefined;
  extendDataset?: DatasetStep | undefined;
  /** The sentence encoder, when it leads the ranking. */
  sentenceEncoder?: Promise<EmbeddingModel | undefined> | undefined;
  /** The console: its page's files, its request log, and what its landing page says. */
  console?:
    | {
        assets: ReadonlyMap<string, Asset>;
        exchanges: ExchangeLog;
        /** What only the adapter knows: the package's version, the ranking in force, where it listens. */
        about(): Pick<Overview, 'version' | 'ranking' | 'listening'>;
      }
    | undefined;
  /** Recording: API requests go to the deployment (the mode's status says how far it is). */
  recording?:
    | {
        forward: Extract<Mode, { kind: 'record' }>['forward'];
        status(): NonNullable<ModeStatus['recording']>;
        onChange(listener: () => void): () => void;
      }
    | undefined;
  /** What the mode's status adds (the drift so far, the replayed cassette's name, the export folder). */
  modeDetails?: (() => Omit<ModeStatus, 'mode' | 'recording'>) | undefined;
  /** Writes the state to the export folder now, listing the files. */
  writeStateFolder?: (() => Promise<string[]>) | undefined;
}

/**
 * Builds the service from options and hands every request to the one pipeline. What needs awaiting
 * (data to load, indexes to build) is one step, `ready`, that requests wait for; credentials, faults
 * and the recorder exist at once.
 */
export function createService(settings: Settings, additions: ServiceAdditions = {}): Service {
  const { apiKeys, limits, log, extensionUri } = settings;
  const auth = new Authenticator(settings.auth);
  const guard = new AccessGuard(auth);
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const faults = new FaultList(changed);
  const streamSlots = new StreamSlots(limits.maxConcurrentStreams, changed);
  for (const rule of settings.faults) faults.add(rule);
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
  // Checked now, so a bad cassette fails where it is given; the replayer itself loads with the state.
  const { replay } = settings;
  const cassette = replay && typeof replay.cassette === 'object' ? replay.cassette : undefined;
  if (cassette) checkCassette(cassette, 'the cassette', limits.maxJsonDepth);
  let replayer: Replayer | undefined;
  const { recording } = additions;
  const mode: Mode = recording
    ? { kind: 'record', forward: recording.forward }
    : cassette
      ? {
          kind: 'replay',
          // Requests reach the mode once the state is built, and with it the replayer.
          replay: (method, target, body, onClose) =>
            (replayer as Replayer).replay(method, target, body, onClose),
          fallback: replay?.fallback ?? 'miss',
        }
      : { kind: 'emulate' };
  let a2a: A2AServer | undefined;
  let builtState: ServiceState | undefined;
  const built = (async () => {
    if (cassette) {
      const { Replayer } = await import('./cassette/replay.js');
      replayer = new Replayer(cassette, {
        speed: replay?.speed,
        ignore: replay?.ignore,
        limits,
        slots: streamSlots,
      });
    }
    const dataset = seededDataset(settings.dataset);
    if (additions.extendDataset) await additions.extendDataset(dataset);
    const state = await ServiceState.create(dataset, {
      embed: settings.ranking.embed,
      sentenceEncoder: await additions.sentenceEncoder,
      warm: settings.ranking.warm,
      answerVariation: settings.answerVariation,
    });
    a2a = new A2AServer(
      state,
      extensionUri,
      { ...limits, stepDelayMs: settings.a2a.stepDelayMs, answerChunkChars: settings.a2a.answerChunkChars },
      log,
      settings.a2a.version,
      streamSlots,
    );
    builtState = state;
    return operationsFor(state, a2a, questions, limits);
  })();
  const ready = built.then(() => undefined);
  // Callers see a failed setup through `ready` (and every request); it is not also an unhandled rejection.
  ready.catch(() => {});

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
  const exportState = async () => collectState(await stateParts());
  // The state the emulator was started from (`import`), which a reset returns to.
  let startedFrom: EmulatorState | undefined;
  const openStreams = () => streamSlots.open;
  const modeName: ModeStatus['mode'] = recording ? 'recording' : cassette ? 'replaying' : 'emulating';
  const console_ = additions.console;

  const control: ControlContext = {
    apiKey: apiKeys[0] ?? '',
    faults,
    rateLimit,
    recorder,
    exchanges: console_?.exchanges,
    get openStreams() {
      return openStreams();
    },
    overview: () => ({
      version: '',
      ranking: '',
      listening: '',
      ...console_?.about(),
      a2aVersion: settings.a2a.version,
      credentials: settings.accepted,
      corsOrigins: settings.cors?.origins ?? [],
      extensionUri,
      operationIds: [...operationIds],
    }),
    mode: () => ({
      mode: modeName,
      ...(recording ? { recording: recording.status() } : {}),
      ...additions.modeDetails?.(),
    }),
    async scenarioChoice(agentId): Promise<ScenarioChoice> {
      await built;
      const agent = (builtState as ServiceState).agent(agentId);
      return {
        asksWhenUnmatched: agent.asksWhenUnmatched ?? false,
        scenarios: agent.scenarios.map((s) => ({ id: s.id, name: s.name, keywords: [...s.keywords] })),
      };
    },
    exportState,
    reset: async () => resetState(await stateParts(), startedFrom, settings.faults),
    writeStateFolder: additions.writeStateFolder,
    onChange(listener) {
      listeners.add(listener);
      const unsubscribeMode = recording?.onChange(listener);
      return () => {
        listeners.delete(listener);
        unsubscribeMode?.();
      };
    },
  };

  const heard: PipelineListeners[] = [
    {
      request: (r) => recorder.record(r.method, r.path, r.query, r.headers, r.body, r.size, r.capture),
    },
  ];
  if (console_)
    heard.push({ exchange: (requestId, capture) => console_.exchanges.begin(requestId, capture) });
  const pipeline = createPipeline({
    auth,
    guard,
    limits,
    log,
    cors: settings.cors,
    faults,
    rateLimiter: () => rateLimiter,
    operations: built,
    mode,
    control,
    consoleAssets: console_?.assets,
    listeners: heard,
    capture: {
      secrets: settings.secrets,
      decode: additions.decode,
      maxBodyBytes: limits.maxRecordedBodyBytes,
    },
  });

  return {
    apiKey: control.apiKey,
    extensionUri,
    limits,
    log,
    recorder,
    faults,
    guard,
    ready,
    get openStreams() {
      return openStreams();
    },
    respond: pipeline.handle,
    closeAll: pipeline.closeAll,
    exportState,
    async importState(saved) {
      restoreState(await stateParts(), saved);
      startedFrom = saved;
    },
  };
}

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
