import type { JSONWebKeySet } from 'jose';
import type { CorsOptions } from './http/cors.js';
import type { FaultRule } from './http/faults.js';
import type { EmulatorLogger } from './logger.js';

export interface EmulatorLimits {
  /** Largest request body accepted (413 above it). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Time allowed to receive a whole request. Default 30 s. */
  requestTimeoutMs?: number;
  /** Longest an A2A stream stays open. Default 5 min. */
  streamTimeoutMs?: number;
  /** Open A2A streams allowed at once (429 above it). Default 64. */
  maxConcurrentStreams?: number;
}

export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** API keys accepted as `SSWS <key>`; one is generated when none is given. */
  apiKeys?: string[];
  /** Secret for HS256 JWTs accepted as `Bearer <jwt>`. */
  jwtSecret?: string;
  /** A JWKS (or its URL) for JWTs accepted as `Bearer <jwt>`. */
  jwks?: JSONWebKeySet | string;
  /** A folder of documents and a `dataworkz.json`, served as extra QnA systems. */
  data?: string;
  /** Faults to inject from the start. */
  faults?: FaultRule[];
  /** Allowed browser origins; CORS is off when absent. */
  cors?: CorsOptions;
  /** Base of the provided-values extension URI. Default `https://dataworkz.com`. */
  extensionBase?: string;
  /** Leave the account without a default LLM, so an agent without its own LLM cannot run without `llmId`. */
  noDefaultLlm?: boolean;
  /** Pause before each task update of a stream, to show progress the way a real agent does. Default 0. */
  agentStepDelayMs?: number;
  limits?: EmulatorLimits;
  /** Receives what goes wrong inside the emulator (pass `console` to see it). Quiet by default. */
  logger?: EmulatorLogger;
}
