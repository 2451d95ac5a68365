import type { FaultRule } from './http/faults.js';
import type { RecordedRequest } from './http/recorder.js';
import type { EmulatorState } from './saved-state/snapshot.js';
import type { Service } from './service.js';

/** What a test reads and steers on an emulator, whether it listens on a port or answers in process. */
export interface EmulatorControls {
  /** The first configured API key (a generated one if none was given). */
  readonly apiKey: string;
  /** The provided-values extension URI in force. */
  readonly extensionUri: string;
  /**
   * Authenticated API requests received, newest last (the last 500, 8 MiB at most by default; see
   * `limits`): a snapshot taken when read, so read it again after a call.
   */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  /** A2A streams open right now. */
  readonly openStreams: number;
  /**
   * What the session created: conversations, tasks, question history, faults in force, cancelled
   * orders, and the systems served, in the versioned format `exportOnExit` writes and `import` reads.
   */
  exportState(): Promise<EmulatorState>;
}

/**
 * The controls of a service, joined with an adapter's own members (`url`, `fetch`, `close`...). The
 * members are copied as descriptors, so getters such as `openStreams` stay live.
 */
export function withControls<T extends object>(service: Service, own: T): T & EmulatorControls {
  const controls: EmulatorControls = {
    apiKey: service.apiKey,
    extensionUri: service.extensionUri,
    get requests() {
      return service.recorder.requests;
    },
    clearRequests: () => service.recorder.clear(),
    faults: { add: (rule) => service.faults.add(rule), clear: () => service.faults.clear() },
    get openStreams() {
      return service.openStreams;
    },
    exportState: () => service.exportState(),
  };
  return Object.defineProperties(controls, Object.getOwnPropertyDescriptors(own)) as T & EmulatorControls;
}
