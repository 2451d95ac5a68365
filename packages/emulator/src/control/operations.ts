import type { ExchangeLog } from '../console/exchange-log.js';
import { HttpError } from '../http/errors.js';
import { checkFaultRule } from '../http/faults.js';
import type { Reply } from '../http/reply.js';
import { type ControlContext, faultState, rowOf } from './context.js';
import { liveEvents } from './live-events.js';
import type { FaultsAdded } from './types.js';

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
  // Redacted: a peer with any valid credential must not read the key the console's proxy added, nor
  // another caller's credentials. `emu.requests` in the emulator's own process keeps them as sent.
  { method: 'GET', path: 'requests', run: (ctx) => ctx.recorder.redacted() },
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
      return { entries: exchangeLog(ctx).list().map(rowOf) };
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
      return entry;
    },
  },
  {
    method: 'GET',
    path: 'events',
    run: (ctx, { reply, onClose }) => {
      reply.answer(liveEvents(ctx, onClose));
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
