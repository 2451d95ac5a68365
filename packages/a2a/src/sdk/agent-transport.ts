import type { A2AMessage, A2AStreamEvent, A2ATask } from '../a2a-types.js';

/** An A2A version this package speaks. */
export type ProtocolVersion = '0.3' | '1.0';

/** What one call gives the transport beside its params. */
export interface CallOptions {
  signal: AbortSignal;
  /** The A2A extension URIs to activate, comma-separated, sent in the version's extensions header. */
  extensions?: string | undefined;
}

export interface TaskParams {
  id: string;
  historyLength?: number | undefined;
}

/**
 * The A2A calls a run makes, made by the official SDK's client transport of one version. Events and
 * tasks come out in A2A v0.3 shape whatever the version spoken: as the service sent them under v0.3,
 * mapped from the SDK's v1 objects under v1.0.
 */
export interface AgentTransport {
  readonly version: ProtocolVersion;
  stream(message: A2AMessage, options: CallOptions): AsyncGenerator<A2AStreamEvent, void, undefined>;
  resubscribe(taskId: string, options: CallOptions): AsyncGenerator<A2AStreamEvent, void, undefined>;
  getTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
  cancelTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
}
