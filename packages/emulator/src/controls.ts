import type { FaultRule } from './http/faults.js';
import type { RecordedRequest } from './http/recorder.js';

/** What a test reads and steers on an emulator, whether it listens on a port or answers in process. */
export interface EmulatorControls {
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
}
