import type { ExchangeLog } from '../console/exchange-log.js';
import type { FaultList } from '../http/faults.js';
import type { RequestRecorder } from '../http/recorder.js';
import { operationIds } from '../http/router.js';
import type { EmulatorState } from '../saved-state/snapshot.js';
import type { FaultState, LoggedExchange, LogRow, ModeStatus, Overview, ScenarioChoice } from './types.js';

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

/** The list row of an entry: no headers, no bodies. */
export function rowOf(entry: LoggedExchange): LogRow {
  const { requestHeaders, requestBody, responseHeaders, responseBody, ...rest } = entry;
  return rest;
}
