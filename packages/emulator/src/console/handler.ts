import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Surface } from '../http/access-guard.js';
import { HttpError } from '../http/errors.js';
import { checkFaultRule } from '../http/faults.js';
import { parseJsonBody } from '../http/json-body.js';
import { readNodeBody } from '../http/node-body.js';
import { fromThisMachine } from '../http/node-peer.js';
import { operationIds } from '../http/router.js';
import { fromUtf8 } from '../neutral/bytes.js';
import type { DriftFinding } from '../record/drift-report.js';
import type { Service } from '../service.js';
import type { Asset } from './assets.js';
import { consoleMarker, type ExchangeLog, type LoggedExchange } from './exchange-log.js';
import { redactExchange } from './redact.js';

export const consolePath = '/console';
const apiPrefix = '/console/api/';
const proxyPrefix = '/console/api/proxy';

/** What the landing page says of the running emulator (nothing secret). */
interface ConsoleAbout {
  /** The version of @dataworkz/emulator. */
  version: string;
  a2aVersion: '0.3' | '1.0';
  /** How QnA passages are ranked, in a few words. */
  ranking: string;
  /** The credentials the API accepts, in a few words each (no key, no secret). */
  credentials: string[];
  /** Browser origins allowed by CORS: none, `*` or a list. */
  corsOrigins: string[] | '*';
  /** The address the emulator listens on. */
  listening: string;
}

/** What the page shows of the mode the emulator runs in. */
export interface ModeStatus {
  mode: 'emulating' | 'recording' | 'replaying';
  /** Recording: the deployment's origin, the cassette's path, its entries and bytes. */
  recording?: { target: string; cassette: string; entries: number; bytes: number };
  /** Replaying: the cassette's path (or `a cassette object`) and its entries. */
  replaying?: { cassette: string; entries: number };
  /** Recording: the drift found so far, each finding with its operation. */
  drift?: { responses: number; findings: (DriftFinding & { operationId: string })[] };
  /** Where `Export state` writes, when the emulator was started with an export folder. */
  exportFolder?: string;
}

/** What the console's endpoints work with. */
export interface ConsoleContext {
  service: Service;
  exchanges: ExchangeLog;
  assets: Map<string, Asset>;
  /** Every credential to keep out of the page: the API keys and the JWT secret. */
  secrets: readonly string[];
  about: ConsoleAbout;
  /** The mode (emulating, recording, replaying) and what goes with it: the cassette, the drift so far. */
  mode(): ModeStatus;
  /** Calls `listener` when the mode's status changes (an exchange recorded), until the returned function is called. */
  onModeChange(listener: () => void): () => void;
  /** Writes the state to the export folder now; undefined without `exportOnExit`. */
  exportState: (() => Promise<string[]>) | undefined;
  /** Answers an API request through the service, as if it came from a program holding the key. */
  forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: string,
    headers: Record<string, string>,
  ): Promise<void>;
}

/** Headers the page may pass on to the API (never a credential: the console adds its own). */
const forwarded = ['content-type', 'accept', 'x-a2a-extensions', 'a2a-extensions'];

const common = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function isConsolePath(path: string): boolean {
  return path === consolePath || path.startsWith(`${consolePath}/`);
}

/** Answers one request under `/console`: the page, its files, or one of its endpoints. */
export async function answerConsole(
  ctx: ConsoleContext,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const at = target.indexOf('?');
  const path = at < 0 ? target : target.slice(0, at);
  const local = fromThisMachine(req);
  const surface: Surface = path.startsWith(apiPrefix) ? 'console-api' : 'console-page';
  const refusal = await ctx.service.guard.refusal({ local, method, headers }, surface);
  if (refusal !== undefined) {
    json(res, refusal.status, { message: refusal.message, code: refusal.code }, refusal.headers);
    return;
  }
  try {
    if (path === proxyPrefix || path.startsWith(`${proxyPrefix}/`)) {
      const apiTarget = target.slice(proxyPrefix.length);
      if (!apiTarget.startsWith('/api/')) throw new HttpError(404, 'The console forwards only API paths');
      const sent: Record<string, string> = {
        host: headers.host ?? '',
        // The emulator's key for a browser on this machine only; a peer elsewhere proved its own (the guard).
        authorization: local ? `SSWS ${ctx.service.apiKey}` : (headers.authorization ?? ''),
        'user-agent': 'Dataworkz emulator console',
        [consoleMarker]: '1',
      };
      for (const name of forwarded) {
        const value = headers[name];
        if (value !== undefined) sent[name] = value;
      }
      if (headers['content-length'] !== undefined) sent['content-length'] = headers['content-length'];
      await ctx.forward(req, res, apiTarget, sent);
      return;
    }
    if (path.startsWith(apiPrefix)) {
      await endpoint(ctx, req, res, method, path.slice(apiPrefix.length), local);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `${method} is not served here`);
    const assetName = path.startsWith('/console/assets/') ? path.slice('/console/assets/'.length) : undefined;
    if (assetName !== undefined && assetName !== 'index.html') {
      const asset = ctx.assets.get(assetName);
      if (!asset) throw new HttpError(404, `No console file ${assetName}`);
      send(res, 200, asset.type, asset.body);
      return;
    }
    // Every other path is one of the page's own views: the page routes it.
    const page = ctx.assets.get('index.html');
    if (!page) {
      send(
        res,
        503,
        'text/plain; charset=utf-8',
        'The console page is missing from this copy of @dataworkz/emulator: build the package (pnpm build) and start it again.\n',
      );
      return;
    }
    send(res, 200, page.type, page.body, { 'content-security-policy': pagePolicy });
  } catch (error) {
    if (error instanceof HttpError) json(res, error.status, { message: error.message });
    else {
      ctx.service.log.error(`The console failed to answer ${method} ${path}`, error);
      json(res, 500, { message: 'The console failed to answer; the emulator log says why' });
    }
  }
}

async function endpoint(
  ctx: ConsoleContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  name: string,
  local: boolean,
): Promise<void> {
  const { service, exchanges } = ctx;
  const route = `${method} ${name}`;
  if (route === 'GET overview') {
    json(res, 200, { ...ctx.about, extensionUri: service.extensionUri, operationIds });
  } else if (route === 'GET key') {
    // Shown only when asked for, and only to a browser on this machine: a key given with --api-key
    // may be one that works elsewhere too.
    if (!local) {
      throw new HttpError(
        403,
        'The API key is shown only to a browser on the machine the emulator runs on: use the key it printed',
      );
    }
    json(res, 200, { apiKey: service.apiKey });
  } else if (route === 'GET log') {
    json(res, 200, {
      entries: exchanges
        .list()
        .map((e) => summary(redactExchange(e, ctx.secrets, ctx.exchanges.maxBodyBytes))),
    });
  } else if (route === 'DELETE log') {
    exchanges.clear();
    json(res, 200, { entries: [] });
  } else if (route === 'POST state/export') {
    if (!ctx.exportState) {
      throw new HttpError(409, 'No export folder: start the emulator with --export-on-exit <dir>');
    }
    json(res, 200, { files: await ctx.exportState() });
  } else if (route === 'GET events') {
    streamEvents(ctx, req, res);
  } else if (method === 'GET' && /^log\/\d+$/.test(name)) {
    const entry = exchanges.get(Number(name.slice('log/'.length)));
    if (!entry) throw new HttpError(404, 'That request is no longer in the log (it keeps the most recent)');
    json(res, 200, redactExchange(entry, ctx.secrets, ctx.exchanges.maxBodyBytes));
  } else if (method === 'GET' && /^agents\/[^/]+$/.test(name)) {
    let agentId: string;
    try {
      agentId = decodeURIComponent(name.slice('agents/'.length));
    } catch {
      throw new HttpError(400, 'The agent id is not valid percent-encoding');
    }
    json(res, 200, await service.scenarioChoice(agentId));
  } else if (route === 'GET faults') {
    json(res, 200, faultState(service));
  } else if (route === 'POST faults') {
    service.faults.add(checkFaultRule(await jsonBody(ctx, req)));
    json(res, 200, faultState(service));
  } else if (route === 'DELETE faults') {
    service.faults.clear();
    service.rateLimit.reset();
    json(res, 200, faultState(service));
  } else if (route === 'PUT rate-limit') {
    const body = await jsonBody(ctx, req);
    const { perSecond, burst } = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    if (!(typeof perSecond === 'number' && perSecond > 0 && perSecond <= 1e6)) {
      throw new HttpError(400, 'perSecond must be a number of requests per second above 0');
    }
    if (
      burst !== undefined &&
      !(Number.isInteger(burst) && (burst as number) >= 1 && (burst as number) <= 1e6)
    ) {
      throw new HttpError(400, 'burst must be a whole number of requests, 1 or more');
    }
    service.rateLimit.set(perSecond, (burst as number | undefined) ?? Math.max(1, Math.floor(perSecond)));
    json(res, 200, faultState(service));
  } else if (route === 'DELETE rate-limit') {
    service.rateLimit.reset();
    json(res, 200, faultState(service));
  } else {
    throw new HttpError(404, `No console endpoint ${method} ${name}`);
  }
}

/** The list row of an entry: no headers, no bodies. */
function summary(entry: LoggedExchange) {
  const { requestHeaders, requestBody, responseHeaders, responseBody, ...rest } = entry;
  return rest;
}

function faultState(service: Service) {
  const finite = (n: number) => (Number.isFinite(n) ? n : null);
  const { perSecond, burst } = service.rateLimit.current;
  return {
    faults: service.faults.list(),
    rateLimit: { perSecond: finite(perSecond), burst: finite(burst) },
    routes: ['*', ...operationIds],
  };
}

async function jsonBody(ctx: ConsoleContext, req: IncomingMessage): Promise<unknown> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'Send JSON (content-type: application/json)');
  }
  const received = await readNodeBody(req, 64 * 1024);
  if (received.refusal) throw received.refusal;
  return parseJsonBody(fromUtf8(received.bytes), ctx.service.limits.maxJsonDepth);
}

/** What changes on its own as requests come and go: the faults in force, the rate limit, the open streams. */
function liveState(ctx: ConsoleContext) {
  const { routes, ...state } = faultState(ctx.service);
  return { ...state, openStreams: ctx.service.openStreams, mode: ctx.mode() };
}

/**
 * The page's one live channel, as server-sent events: a `state` event (faults in force with their
 * uses left, rate limit, open streams) at once and after each change, and an `entry` event per new
 * or changed entry of the request log.
 */
function streamEvents(ctx: ConsoleContext, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { ...common, 'content-type': 'text/event-stream' });
  res.write(': the console, live\n\n');
  let sent = '';
  const sendState = () => {
    const data = JSON.stringify(liveState(ctx));
    if (data === sent) return;
    sent = data;
    res.write(`event: state\ndata: ${data}\n\n`);
  };
  sendState();
  // A burst of changes (a stream's start and a fault's use, say) goes out as one event.
  let pending: ReturnType<typeof setImmediate> | undefined;
  const stateChanged = () => {
    pending ??= setImmediate(() => {
      pending = undefined;
      sendState();
    });
  };
  const unsubscribeState = ctx.service.onChange(stateChanged);
  const unsubscribeMode = ctx.onModeChange(stateChanged);
  const unsubscribeLog = ctx.exchanges.subscribe((entry) => {
    res.write(
      `event: entry\ndata: ${JSON.stringify(summary(redactExchange(entry, ctx.secrets, ctx.exchanges.maxBodyBytes)))}\n\n`,
    );
  });
  const stop = () => {
    unsubscribeState();
    unsubscribeMode();
    unsubscribeLog();
    if (pending) clearImmediate(pending);
  };
  req.once('close', stop);
  res.once('close', stop);
}

function json(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), extra);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...common,
    ...extra,
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
