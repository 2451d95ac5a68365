// What the control surface answers, as the server builds it and the console page reads it: the page
// imports these types from here (type-only, so nothing of the server reaches its bundle).
import type { LoggedExchange } from '../console/exchange-log.js';
import type { DriftFinding } from '../drift-report.js';
import type { FaultRule } from '../http/faults.js';
import type { OperationId } from '../http/router.js';

export type { FaultRule, LoggedExchange };

/** A row of the request log: an exchange without its headers and bodies (those come with the entry). */
export type LogRow = Omit<
  LoggedExchange,
  'requestHeaders' | 'requestBody' | 'responseHeaders' | 'responseBody'
>;

/** The faults in force with their uses left, and the rate limit in force (`null`: none). */
export interface FaultState {
  faults: { rule: FaultRule; remaining: number }[];
  rateLimit: { perSecond: number | null; burst: number | null };
  /** What a rule's `route` may name: `*` and each operationId. */
  routes: ('*' | OperationId)[];
}

/** What `POST /_emulator/faults` adds to the fault state: how many rules it added, how many are in force. */
export interface FaultsAdded extends FaultState {
  added: number;
  active: number;
}

/** What changes as requests come and go: the faults in force with their uses left, the rate limit, the open streams. */
export interface LiveState extends Omit<FaultState, 'routes'> {
  openStreams: number;
  mode: ModeStatus;
}

/** The mode the emulator runs in, and what goes with it. */
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

/** What the console's landing page says of the running emulator (nothing secret). */
export interface Overview {
  /** The version of @dataworkz/emulator. */
  version: string;
  a2aVersion: '0.3' | '1.0';
  /** How QnA passages are ranked, in a few words. */
  ranking: string;
  /** The credentials the API accepts, in a few words each (no key, no secret). */
  credentials: string[];
  /** Browser origins allowed by CORS: none, `*` or a list. */
  corsOrigins: string[] | '*';
  /** The address the emulator listens on (empty in process). */
  listening: string;
  extensionUri: string;
  operationIds: OperationId[];
}

/** How an agent picks a scenario for a message. */
export interface ScenarioChoice {
  /** Whether a message no scenario matches gets a question back (which scenario?), else what the agent can do. */
  asksWhenUnmatched: boolean;
  /** Each scenario with the word beginnings that select it (the one with most matches wins). */
  scenarios: { id: string; name: string; keywords: string[] }[];
}
