import type { ExchangeLog } from '../console/exchange-log.js';
import { redactExchange } from '../console/redact.js';
import { HttpError } from '../http/errors.js';
import { checkFaultRule, type FaultList } from '../http/faults.js';
import type { RequestRecorder } from '../http/recorder.js';
import type { Reply } from '../http/reply.js';
import { operationIds } from '../http/router.js';
import type { EmulatorState } from '../saved-state/snapshot.js';
import { liveEvents } from './live-events.js';
import type {
  FaultState,
  FaultsAdded,
  LoggedExchange,
  LogRow,
  ModeStatus,
  Overview,
  ScenarioChoice,
} from './types.js';

/** The rate limit of API requests per credential, changed while the emulator runs. */
export interface RateLimitSwitch {
  /** Requests per second and burst in force (`Infinity` for none). */
  readonly current: { perSecond: number; burst: number };
  set(perSecond: number, burst: number): void;
  /** Back to the limit the emulator was started with. */
  reset(): void;
}

/** What the control operations read and steer: the running emulator's parts. */
export interface ControlContext {
  readonly apiKey: string;
  readonly faults: FaultList;
  readonly rateLimit: RateLimitSwitch;
  readonly recorder: RequestRecorder;
  /** The console's request log; undefined when the emulator runs without the console. */
  readonly exchanges: ExchangeLog | undefined;
  /** Every credential to keep out of what the log shows: the API keys and the JWT secret. */
  readonly secrets: readonly string[];
  readonly openStreams: number;
  overview(): Overview;
  mode(): ModeStatus;
  scenarioChoice(agentId: string): Promise<ScenarioChoice>;
  exportState(): Promise<EmulatorState>;
  /** Back to the state the emulator started in (see the `reset` operation). */
  reset(): Promise<void>;
  /** Writes the state to the export folder now, listing the files; undefined without one. */
  readonly writeStateFolder: (() => Promise<string[]>) | undefined;
  /**
   * Calls `listener` after each change to the faults, the rate limit, the open streams or the mode's
   * status, until the returned function is called.
   */
  onChange(listener: () => void): () => void;
}

/** One control request, as the pipeline hands it to an operation (the guard has let it in). */
interface ControlRequest {
  /** The path's parameters (`:id`, `:agentId`), decoded. */
  params: Record<string, string>;
  /** Whether the caller is on this machine (see the access guard). */
  local: boolean;
  /** The body, parsed as JSON (400 for anything else). */
  json(): Promise<unknown>;
  reply: Reply;
  /** Calls `listener` once the caller has gone (for a stream of events). */
  onClose(listener: () => void): void;
}

interface ControlOperation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path under the surface's prefix; `:name` matches one segment. */
  path: string;
  run(ctx: ControlContext, request: ControlRequest): unknown;
}

/**
 * The control operations, one table, served at `/_emulator/<path>` (every caller shows a credential)
 * and at `/console/api/<path>` for the console's page (the access guard says who may use each).
 */
const operations: ControlOperation[] = [
  { method: 'GET', path: 'faults', run: (ctx) => faultState(ctx) },
  {
    method: 'POST',
    path: 'faults',
    run: async (ctx, { json }): Promise<FaultsAdded> => {
      const parsed = await json();
      const rules = (Array.isArray(parsed) ? parsed : [parsed]).map(checkFaultRule);
      for (const rule of rules) ctx.faults.add(rule);
      return { added: rules.length, active: ctx.faults.size, ...faultState(ctx) };
    },
  },
  {
    method: 'DELETE',
    path: 'faults',
    run: (ctx) => {
      ctx.faults.clear();
      ctx.rateLimit.reset();
      return { active: 0, ...faultState(ctx) };
    },
  },
  {
    method: 'PUT',
    path: 'rate-limit',
    run: async (ctx, { json }) => {
      const body = await json();
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
      ctx.rateLimit.set(perSecond, (burst as number | undefined) ?? Math.max(1, Math.floor(perSecond)));
      return faultState(ctx);
    },
  },
  {
    method: 'DELETE',
    path: 'rate-limit',
    run: (ctx) => {
      ctx.rateLimit.reset();
      return faultState(ctx);
    },
  },
  { method: 'GET', path: 'requests', run: (ctx) => ctx.recorder.requests },
  {
    method: 'DELETE',
    path: 'requests',
    run: (ctx) => {
      ctx.recorder.clear();
      return { requests: 0 };
    },
  },
  {
    method: 'GET',
    path: 'log',
    run: (ctx) => {
      const log = exchangeLog(ctx);
      return { entries: log.list().map((e) => rowOf(redactExchange(e, ctx.secrets, log.maxBodyBytes))) };
    },
  },
  {
    method: 'DELETE',
    path: 'log',
    run: (ctx) => {
      exchangeLog(ctx).clear();
      return { entries: [] };
    },
  },
  {
    method: 'GET',
    path: 'log/:id',
    run: (ctx, { params }) => {
      const log = exchangeLog(ctx);
      const entry = /^\d+$/.test(params.id ?? '') ? log.get(Number(params.id)) : undefined;
      if (!entry) throw new HttpError(404, 'That request is no longer in the log (it keeps the most recent)');
      return redactExchange(entry, ctx.secrets, log.maxBodyBytes);
    },
  },
  {
    method: 'GET',
    path: 'events',
    run: (ctx, { reply, onClose }) => {
      reply.answer(liveEvents(ctx, rowOf, onClose));
      return undefined;
    },
  },
  { method: 'GET', path: 'state', run: (ctx) => ctx.exportState() },
  {
    method: 'POST',
    path: 'state/export',
    run: async (ctx) => {
      if (!ctx.writeStateFolder) {
        throw new HttpError(
          409,
          'No export folder: start the emulator with --export-on-exit <dir> (or read GET /_emulator/state)',
          {},
          'NO_EXPORT_FOLDER',
        );
      }
      return { files: await ctx.writeStateFolder() };
    },
  },
  {
    method: 'POST',
    path: 'reset',
    run: async (ctx) => {
      await ctx.reset();
      ctx.rateLimit.reset();
      ctx.recorder.clear();
      ctx.exchanges?.clear();
      return { reset: true, ...faultState(ctx) };
    },
  },
  { method: 'GET', path: 'overview', run: (ctx) => ctx.overview() },
  {
    method: 'GET',
    path: 'key',
    run: (ctx, { local }) => {
      // Shown only when asked for, and only to a caller on this machine: a key given with --api-key
      // may be one that works elsewhere too.
      if (!local) {
        throw new HttpError(
          403,
          'The API key is shown only to a browser on the machine the emulator runs on: use the key it printed',
          {},
          'FORBIDDEN',
        );
      }
      return { apiKey: ctx.apiKey };
    },
  },
  {
    method: 'GET',
    path: 'agents/:agentId',
    run: (ctx, { params }) => ctx.scenarioChoice(params.agentId ?? ''),
  },
];

/** The operation a request names, with its path's parameters; a 404 HttpError when there is none. */
export function controlOperation(
  method: string,
  path: string,
): { operation: ControlOperation; params: Record<string, string> } {
  const segments = path.split('/');
  let pathMatched = false;
  for (const operation of operations) {
    const params = matchPath(operation.path, segments);
    if (!params) continue;
    pathMatched = true;
    if (operation.method === method) return { operation, params };
  }
  if (pathMatched) throw new HttpError(405, `${method} is not served at ${path}`, {}, 'METHOD_NOT_ALLOWED');
  throw new HttpError(404, `No control endpoint ${method} ${path}`, {}, 'NOT_FOUND');
}

function matchPath(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/');
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const segment = segments[i] as string;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        throw new HttpError(400, `The ${part.slice(1)} is not valid percent-encoding`, {}, 'BAD_REQUEST');
      }
    } else if (part !== segment) return undefined;
  }
  return params;
}

/** The faults in force and the rate limit, as every fault operation answers. */
export function faultState(ctx: Pick<ControlContext, 'faults' | 'rateLimit'>): FaultState {
  const finite = (n: number) => (Number.isFinite(n) ? n : null);
  const { perSecond, burst } = ctx.rateLimit.current;
  return {
    faults: ctx.faults.list(),
    rateLimit: { perSecond: finite(perSecond), burst: finite(burst) },
    routes: ['*', ...operationIds],
  };
}

function exchangeLog(ctx: ControlContext): ExchangeLog {
  if (!ctx.exchanges) {
    throw new HttpError(
      409,
      'No request log: start the emulator with the console (--console) to keep one',
      {},
      'NO_REQUEST_LOG',
    );
  }
  return ctx.exchanges;
}

/** The list row of an entry: no headers, no bodies. */
function rowOf(entry: LoggedExchange): LogRow {
  const { requestHeaders, requestBody, responseHeaders, responseBody, ...rest } = entry;
  return rest;
}
