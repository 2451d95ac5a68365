import { providedValuesUri } from './a2a/provided-values.js';
import type { Cassette } from './cassette/har.js';
import type { EmbedFunction } from './embedding/model.js';
import type { AuthOptions } from './http/auth.js';
import type { CorsOptions } from './http/cors.js';
import type { FaultRule } from './http/faults.js';
import { type Limits, resolveLimits } from './limits.js';
import { type Log, toLog } from './logger.js';
import { generatedApiKey } from './neutral/crypto.js';
import { checkOptions, type EmulatorOptions } from './options.js';
import type { AnswerVariation } from './qna/answer-variation.js';

/**
 * The options, checked once where they come in (`startEmulator`, `createEmulator`) and resolved into
 * each part's own settings: no part reads the options itself.
 */
export interface Settings {
  /** The keys the API accepts: those given, or one generated. */
  apiKeys: string[];
  auth: AuthOptions;
  /** Every secret of the emulator's own, for the redaction of what it logs, records and shows. */
  secrets: string[];
  /** The credentials the API accepts, in a few words each (no key, no secret), for the console. */
  accepted: string[];
  limits: Limits;
  log: Log;
  cors: CorsOptions | undefined;
  extensionUri: string;
  faults: FaultRule[];
  dataset: { noDefaultLlm: boolean };
  ranking: { embed: EmbedFunction | 'word-vectors' | false | undefined; warm: boolean };
  answerVariation: AnswerVariation | undefined;
  a2a: { version: '0.3' | '1.0'; stepDelayMs: number; answerChunkChars: number };
  /** Replaying: the cassette (its file's path until the node:http adapter reads it) and how to serve it. */
  replay:
    | {
        cassette: Cassette | string;
        speed: number | undefined;
        ignore: string[] | undefined;
        fallback: 'miss' | 'emulate';
      }
    | undefined;
}

/** Checks the options (a TypeError naming the first that cannot work) and resolves them. */
export function settle(options: EmulatorOptions): Settings {
  checkOptions(options);
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [generatedApiKey()];
  const secrets = options.jwtSecret ? [...apiKeys, options.jwtSecret] : [...apiKeys];
  return {
    apiKeys,
    auth: {
      apiKeys,
      ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
      ...(options.jwks ? { jwks: options.jwks } : {}),
      allowJwtWithoutExp: options.allowJwtWithoutExp ?? false,
    },
    secrets,
    accepted: acceptedCredentials(options),
    limits: resolveLimits(options.limits),
    log: toLog(options.logger, secrets),
    cors: options.cors,
    extensionUri: providedValuesUri(options.extensionBase ?? 'https://dataworkz.com'),
    faults: options.faults ?? [],
    dataset: { noDefaultLlm: options.noDefaultLlm ?? false },
    ranking: { embed: options.embed, warm: options.warmEncoder ?? false },
    answerVariation: options.answerVariation,
    a2a: {
      version: options.a2aVersion ?? '0.3',
      stepDelayMs: options.agentStepDelayMs ?? 0,
      answerChunkChars: options.answerArtifactChunkChars ?? 0,
    },
    replay:
      options.replay === undefined
        ? undefined
        : {
            cassette: options.replay,
            speed: options.replaySpeed,
            ignore: options.replayIgnore,
            fallback: options.replayFallback === 'emulate' ? 'emulate' : 'miss',
          },
  };
}

/** The credentials the API accepts, without any key or secret. */
function acceptedCredentials(options: EmulatorOptions): string[] {
  const keys = options.apiKeys?.length ?? 0;
  const accepted = [
    keys > 1 ? `${keys} API keys (SSWS)` : keys === 1 ? 'an API key (SSWS)' : 'a generated API key (SSWS)',
  ];
  if (options.jwtSecret) accepted.push('HS256 JWTs (Bearer)');
  if (options.jwks) accepted.push('JWTs verified with a JWKS (Bearer)');
  return accepted;
}
