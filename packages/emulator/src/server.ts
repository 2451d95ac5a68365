import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providedValuesUri } from './a2a/provided-values.js';
import { A2AServer } from './a2a/stream.js';
import { getAgentCard, listAgentLlmProviders, listAgents, respondToAgent } from './agents/handlers.js';
import { loadDataDirectory } from './data/data-directory.js';
import { seededDataset } from './data/seed.js';
import { Authenticator } from './http/auth.js';
import { readBody } from './http/body.js';
import { answerClientError } from './http/client-error.js';
import { control, controlPrefix } from './http/control.js';
import { corsHeaders } from './http/cors.js';
import { errorBody, HttpError } from './http/errors.js';
import type { Exchange } from './http/exchange.js';
import { FaultList, type FaultRule } from './http/faults.js';
import { Query } from './http/query.js';
import { type RecordedRequest, RequestRecorder } from './http/recorder.js';
import { Reply } from './http/reply.js';
import { lookupRoute, type OperationId } from './http/router.js';
import { resolveLimits } from './limits.js';
import { toLog } from './logger.js';
import { checkOptions, type EmulatorOptions } from './options.js';
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
import { ServiceState } from './state.js';

export interface Emulator {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  /** The first configured API key (a generated one if none was given). */
  readonly apiKey: string;
  /** The provided-values extension URI in force. */
  readonly extensionUri: string;
  /** Authenticated API requests received, newest last (the last 500, 8 MiB at most by default; see `limits`). */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  /** A2A streams open right now. */
  readonly openStreams: number;
  /** Stops listening and closes every open connection and stream. */
  close(): Promise<void>;
}

/** Starts the emulator on plain node:http and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  checkOptions(options);
  const apiKeys = options.apiKeys?.length
    ? [...options.apiKeys]
    : [`dwz_${randomBytes(18).toString('base64url')}`];
  const limits = resolveLimits(options.limits);
  const dataset = seededDataset({ noDefaultLlm: options.noDefaultLlm ?? false });
  if (options.data) {
    const data = await loadDataDirectory(options.data, dataset.account);
    dataset.systems = data.replaceSeededSystems ? data.systems : [...dataset.systems, ...data.systems];
  }
  const log = toLog(options.logger);
  const state = await ServiceState.create(dataset, { embed: options.embed });
  const extensionUri = providedValuesUri(options.extensionBase ?? 'https://dataworkz.com');
  const auth = new Authenticator({
    apiKeys,
    ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
    ...(options.jwks ? { jwks: options.jwks } : {}),
    allowJwtWithoutExp: options.allowJwtWithoutExp ?? false,
  });
  const faults = new FaultList();
  for (const rule of options.faults ?? []) faults.add(rule);
  const recorder = new RequestRecorder(limits);
  const questions = new QuestionHistory(limits);
  let url = '';
  const a2a = new A2AServer(
    state,
    () => url,
    extensionUri,
    { ...limits, stepDelayMs: options.agentStepDelayMs ?? 0 },
    log,
  );
  let requestCounter = 0;

  const operations: Record<OperationId, (ex: Exchange) => void | Promise<void>> = {
    listAgents: (ex) => listAgents(state, ex),
    respondToAgent: (ex) => respondToAgent(state, ex, limits),
    listAgentLlmProviders: (ex) => listAgentLlmProviders(state, ex),
    getAgentCardLegacy: (ex) => getAgentCard(state, ex, url, extensionUri),
    getAgentCard: (ex) => getAgentCard(state, ex, url, extensionUri),
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
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const at = rawUrl.indexOf('?');
    const path = at < 0 ? rawUrl : rawUrl.slice(0, at);
    const rawQuery = at < 0 ? '' : rawUrl.slice(at + 1);
    requestCounter += 1;
    const baseHeaders = { 'x-request-id': `req-${requestCounter}`, ...corsHeaders(options.cors, req) };
    // close() destroys every socket, which closes its response too: one listener covers both.
    const onClose = (listener: () => void) => {
      if (res.destroyed || req.socket.destroyed) listener();
      else res.once('close', listener);
    };
    let reply = new Reply(res, baseHeaders);
    try {
      // Checked first, refused only after faults apply: faults reach callers with any credentials.
      const refusal = await auth.check(req.headers.authorization).then(
        () => undefined,
        (error: unknown) => error,
      );
      const isControl = path.startsWith(controlPrefix);
      const received = await readBody(req, limits.maxBodyBytes);
      // Only requests with valid credentials are kept: anyone can send the others, as large as they like.
      if (!isControl && refusal === undefined) {
        recorder.record(method, path, rawQuery, req.headers, received.bytes, received.size);
      }
      if (received.refusal) throw received.refusal;
      const body = received.bytes.toString('utf8');
      if (method === 'OPTIONS') {
        res.writeHead(204, { ...baseHeaders, allow: 'GET, POST, DELETE, OPTIONS' }).end();
        return;
      }
      if (isControl) {
        if (refusal !== undefined) throw refusal;
        control(method, path, body, reply, faults, recorder, limits.maxJsonDepth);
        return;
      }
      const found = lookupRoute(method, path);
      const operationId = found.operationId;
      const fault = path.startsWith('/api/') ? faults.take(operationId ?? '') : undefined;
      if (fault) {
        if (fault.latencyMs) await delay(fault.latencyMs, onClose);
        if (fault.drop === 'before-headers') {
          req.socket.destroy();
          return;
        }
        reply = new Reply(res, baseHeaders, fault);
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
      const resolved = found.resolve();
      const exchange: Exchange = {
        req,
        path,
        params: resolved.params,
        query: new Query(rawQuery, limits.maxTextLength),
        body,
        reply,
        onClose,
      };
      await operations[resolved.operationId](exchange);
    } catch (error) {
      answerFailure(res, baseHeaders, method, path, error);
    }
  }

  /** Answers a request that failed, through a plain reply: the faulted one may be what failed. */
  function answerFailure(
    res: ServerResponse,
    baseHeaders: Record<string, string>,
    method: string,
    path: string,
    error: unknown,
  ): void {
    if (res.headersSent || res.destroyed) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    const reply = new Reply(res, baseHeaders);
    if (error instanceof HttpError) {
      reply.json(error.status, errorBody(error.status, error.message, path, error.code), error.headers);
    } else {
      // Unexpected: answer without details (they could carry request data) and keep serving.
      log.error(`The emulator failed to handle ${method} ${path}`, error);
      reply.json(500, errorBody(500, 'The emulator failed to handle the request', path, 'INTERNAL'));
    }
  }

  const headersTimeout = Math.min(limits.requestTimeoutMs, 30_000);
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout,
      // Node checks those time-outs every 30 s by default: a late request would hold its socket up to twice as long.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // Even the failure answer could not be written: end this connection, keep the process.
        log.error(`The emulator could not answer ${req.method} ${req.url?.split('?')[0]}`, error);
        req.socket.destroy();
      });
    },
  );
  // Unparseable requests (bad headers, bad request line) get a 400, late ones a 408, never a crash.
  server.on('clientError', answerClientError);
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  return {
    url,
    apiKey: apiKeys[0] ?? '',
    extensionUri,
    get requests() {
      return recorder.requests;
    },
    clearRequests: () => recorder.clear(),
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    get openStreams() {
      return a2a.openStreams;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Waits `ms`, or less if the connection closes first. */
function delay(ms: number, onClose: (listener: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    onClose(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
