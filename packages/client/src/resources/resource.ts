import type { Client } from 'openapi-fetch';
import { type APIPromise, apiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import type { paths } from '../generated/schema.js';
import { hintNamesOnNotFound } from '../internal/name-hint.js';
import type { CallTraceInfo } from '../internal/telemetry.js';
import type { Attempt, AttemptResult, CallPlan, Transport } from '../internal/transport.js';

/** The paths of the API that answer `method`. */
type PathFor<M extends 'get' | 'post'> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

type Operation<P extends keyof paths, M extends 'get' | 'post'> = NonNullable<paths[P][M]>;

/** The path and query parameters of an operation, as the spec declares them. */
type ParamsOf<O> = O extends { parameters: infer X }
  ? Pick<X, 'path' & keyof X> & Pick<X, 'query' & keyof X>
  : never;

type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/**
 * One request a method makes, typed by its path: built when the call starts, so a bad argument
 * rejects the call.
 */
export type RequestSpec =
  | {
      [P in PathFor<'get'>]: {
        method: 'GET';
        path: P;
        params?: ParamsOf<Operation<P, 'get'>>;
        headers?: Record<string, string>;
        trace?: SpecTrace;
      };
    }[PathFor<'get'>]
  | {
      [P in PathFor<'post'>]: {
        method: 'POST';
        path: P;
        params?: ParamsOf<Operation<P, 'post'>>;
        body?: BodyOf<Operation<P, 'post'>>;
        trace?: SpecTrace;
      };
    }[PathFor<'post'>];

/** What a request's span says beyond its operation, path template and server (see CallTraceInfo). */
type SpecTrace = Omit<CallTraceInfo, 'template'>;

/** What a resource needs of its client: the typed openapi-fetch client and the request pipeline. */
export interface ResourceContext {
  raw: Client<paths>;
  transport: Transport;
}

/** Turns a 2xx result into a method's value (see `internal/read.ts`). */
export type Read<T> = (result: AttemptResult, attempt: Attempt) => T | Promise<T>;

/** What every resource shares: one way to make a call, so each method is its request and its reader. */
export abstract class APIResource {
  readonly #raw: Client<paths>;
  readonly #transport: Transport;

  /** @internal Made by the client. */
  constructor(context: ResourceContext) {
    this.#raw = context.raw;
    this.#transport = context.transport;
  }

  /**
   * Makes the request `build` describes through the pipeline (retries, time-outs, typed errors) and
   * reads its result with `read`. Anything `build` throws (a bad argument) rejects the call.
   * @internal
   */
  protected _call<T>(
    operation: string,
    options: RequestOptions | undefined,
    build: () => RequestSpec,
    read: Read<T>,
    plan?: CallPlan,
  ): APIPromise<T> {
    return apiPromise(() => {
      const spec = build();
      const raw = this.#raw;
      const trace: CallTraceInfo = spec.trace
        ? { ...spec.trace, template: spec.path }
        : { template: spec.path };
      const path = (spec.params as { path?: { systemId?: unknown; agentId?: unknown } } | undefined)?.path;
      const result = this.#transport.execute(
        operation,
        (init) => {
          // The spec was checked against its path's types where it was built; openapi-fetch's own
          // generics cannot follow a path chosen at run time, hence the casts.
          if (spec.method === 'POST') {
            const post = { ...init, params: spec.params, body: spec.body, parseAs: 'stream' };
            return raw.POST(spec.path as never, post as never) as Promise<AttemptResult>;
          }
          const headers =
            spec.headers && init.headers
              ? { ...spec.headers, ...init.headers }
              : (spec.headers ?? init.headers);
          const get = { ...init, headers, params: spec.params, parseAs: 'stream' };
          return raw.GET(spec.path as never, get as never) as Promise<AttemptResult>;
        },
        read,
        options,
        { ...plan, method: spec.method, trace },
      );
      return path === undefined
        ? result
        : result.catch((error: unknown) => {
            throw hintNamesOnNotFound(error, path);
          });
    });
  }
}
