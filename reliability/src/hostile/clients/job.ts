/** What the client process does in one case: which call, with which client, how often at once. */
export interface Job {
  call: 'qna.list' | 'streamAgent' | 'getTask' | 'contextValues';
  /** Calls started at once (default 1). */
  concurrent?: number;
  /** The credential: a fixed API key, a token function minting a new token per call, or one that revokes the previous token on each refresh. */
  credential: { apiKey: string } | { token: 'minted' | 'revoking' };
  timeout?: number;
  maxRetries?: number;
  maxResponseBytes?: number;
  /** `onResponse` throws the caller's own error. */
  throwingOnResponse?: boolean;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** What one call ended with. */
export interface Outcome {
  /** The error's class name, or `ok`. */
  result: string;
  message?: string;
  attempts?: number;
  /** Characters of the error's `body`, when it has one. */
  bodyChars?: number;
}

/** What the client process reports back. */
export interface JobReport {
  /** From the first call's start to the last call's end. */
  ms: number;
  outcomes: Outcome[];
  /** Fragments (6+ characters) of any credential the process sent, found in an error. */
  leaks: string[];
  /** How often the token function was called, and how often with `refresh: true`. */
  tokenCalls: number;
  refreshCalls: number;
  fdsBefore: number | undefined;
  fdsAfter: number | undefined;
  peakRss: number | undefined;
}

/** The caller's own error that `throwingOnResponse` throws. */
export const CALLER_BUG = 'caller bug in onResponse';
