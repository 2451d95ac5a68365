/** Bounds on what one caller can make the emulator hold or do. Every field is a positive integer. */
export interface EmulatorLimits {
  /** Largest request body accepted (413 above it). Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Time allowed to receive a whole request (408 past it). Default 30 s. */
  requestTimeoutMs?: number | undefined;
  /** Longest an A2A stream stays open. Default 5 min. */
  streamTimeoutMs?: number | undefined;
  /** Open A2A streams allowed at once (429 above it). Default 64. */
  maxConcurrentStreams?: number | undefined;
  /** Longest user text, in characters: a message's text, a question, a query, a turn of history. Default 32,768. */
  maxTextLength?: number | undefined;
  /** Deepest nesting of arrays and objects in a JSON body. Default 64. */
  maxJsonDepth?: number | undefined;
  /** Turns an agent keeps per conversation (contextId) and reads from a posted history; the oldest go first. Default 100. */
  maxTurnsPerContext?: number | undefined;
  /** Conversations (contextIds) kept across agents; the least recently used is forgotten first. Default 1,000. */
  maxConversations?: number | undefined;
  /** Size of all kept conversations (turns and context values as UTF-8 JSON); a single larger one is not kept. Default 32 MiB. */
  maxConversationBytes?: number | undefined;
  /** A2A tasks kept across agents (for `tasks/get`, `tasks/cancel`, follow-ups); the least recently updated go first. Default 1,000. */
  maxTasks?: number | undefined;
  /** Size of all kept tasks (as UTF-8 JSON); a single larger one is not kept. Default 32 MiB. */
  maxTaskBytes?: number | undefined;
  /** Answered questions kept for the question history (beyond the contract), across systems; the oldest go first. Default 1,000. */
  maxQuestions?: number | undefined;
  /** Size of all kept questions (question text and answer as UTF-8 JSON); a single larger one is not kept. Default 16 MiB. */
  maxQuestionBytes?: number | undefined;
  /** Requests kept in `emu.requests` (and in the console's request log); the oldest go first. Default 500. */
  maxRecordedRequests?: number | undefined;
  /** Size of all recorded requests (path, query, headers and kept body, UTF-8); a single larger one is not kept. Default 8 MiB. */
  maxRecordedBytes?: number | undefined;
  /** Bytes of each request body that are recorded; the rest is counted in `bodyBytes` only. Default 64 KiB. */
  maxRecordedBodyBytes?: number | undefined;
  /**
   * API requests allowed per second for each credential, as a token bucket refilled at this rate:
   * past it, 429 with `Retry-After` (seconds) and `retry-after-ms`. Default: no limit.
   */
  rateLimit?: number | undefined;
  /** Requests a credential may make at once before the rate applies (the bucket's size). Default: `rateLimit`. */
  rateLimitBurst?: number | undefined;
}

/** Every limit, resolved to a number. */
export type Limits = { [K in keyof EmulatorLimits]-?: Exclude<EmulatorLimits[K], undefined> };

const KiB = 1024;
const MiB = 1024 * KiB;

/** Node's timers hold at most this many milliseconds. */
const maxTimerMs = 2 ** 31 - 1;

export const defaultLimits: Limits = {
  maxBodyBytes: MiB,
  requestTimeoutMs: 30_000,
  streamTimeoutMs: 300_000,
  maxConcurrentStreams: 64,
  maxTextLength: 32 * KiB,
  maxJsonDepth: 64,
  maxTurnsPerContext: 100,
  maxConversations: 1000,
  maxConversationBytes: 32 * MiB,
  maxTasks: 1000,
  maxTaskBytes: 32 * MiB,
  maxQuestions: 1000,
  maxQuestionBytes: 16 * MiB,
  maxRecordedRequests: 500,
  maxRecordedBytes: 8 * MiB,
  maxRecordedBodyBytes: 64 * KiB,
  // Unlimited until set: a rate of Infinity never empties the bucket.
  rateLimit: Number.POSITIVE_INFINITY,
  rateLimitBurst: Number.POSITIVE_INFINITY,
};

/** The limits in force: the defaults, overridden field by field; throws a TypeError naming a bad field. */
export function resolveLimits(given: EmulatorLimits = {}): Limits {
  const limits = { ...defaultLimits };
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(defaultLimits, name)) {
      throw new TypeError(`Unknown limit '${name}'; known: ${Object.keys(defaultLimits).join(', ')}`);
    }
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`Limit '${name}' must be a positive integer`);
    }
    if (name.endsWith('Ms') && value > maxTimerMs) {
      throw new TypeError(`Limit '${name}' must be at most ${maxTimerMs} (about 24.8 days)`);
    }
    limits[name as keyof Limits] = value;
  }
  return limits;
}
