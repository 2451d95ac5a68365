import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { JSONWebKeySet } from 'jose';
import { checkFaultRule, type FaultRule } from '../../http/faults.js';
import type { EmulatorLimits } from '../../limits.js';
import type { EmulatorLogger } from '../../logger.js';
import type { EmulatorOptions } from '../../options.js';
import { flagOf, limitNames } from './usage.js';

/** A mistake in the command line: reported with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const logLevels = ['off', 'error', 'warn', 'info', 'debug'] as const;

export type Parsed = { help: true } | { help: false; options: EmulatorOptions };

/** Reads the command line into emulator options; throws UsageError naming the flag at fault. */
export function parseArguments(args: string[], stderr: (line: string) => void): Parsed {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(args).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const limits: EmulatorLimits = {};
  for (const name of limitNames) {
    const flag = flagOf(name);
    const value = (values as Record<string, unknown>)[flag];
    if (typeof value === 'string') limits[name] = integer(flag, value, 1, Number.MAX_SAFE_INTEGER);
  }
  const stepDelay = values['agent-step-delay-ms'];
  const chunkChars = values['answer-artifact-chunk-chars'];
  const temperature = values['answer-temperature'];
  const answerSeed = values['answer-seed'];
  if (answerSeed !== undefined && temperature === undefined)
    throw new UsageError('--answer-seed needs --answer-temperature');
  return {
    help: false,
    options: {
      port: values.port === undefined ? 8787 : integer('port', values.port, 0, 65535),
      host: values.host ?? '127.0.0.1',
      apiKeys: values['api-key'] ?? [],
      noDefaultLlm: values['no-default-llm'] ?? false,
      ...(values['warm-encoder'] ? { warmEncoder: true } : {}),
      console: !(values['no-console'] ?? false),
      allowJwtWithoutExp: values['allow-jwt-without-exp'] ?? false,
      ...(values['jwt-secret'] ? { jwtSecret: values['jwt-secret'] } : {}),
      ...(values.jwks ? { jwks: readJwks(values.jwks) } : {}),
      ...(values.data ? { data: values.data } : {}),
      ...(values['extension-base'] ? { extensionBase: values['extension-base'] } : {}),
      ...(values.cors
        ? { cors: { origins: values.cors === '*' ? '*' : values.cors.split(',').map((o) => o.trim()) } }
        : {}),
      ...(stepDelay !== undefined
        ? { agentStepDelayMs: integer('agent-step-delay-ms', stepDelay, 0, 2 ** 31 - 1) }
        : {}),
      ...(chunkChars !== undefined
        ? { answerArtifactChunkChars: integer('answer-artifact-chunk-chars', chunkChars, 0, 2 ** 31 - 1) }
        : {}),
      ...(values['a2a-version'] ? { a2aVersion: a2aVersion(values['a2a-version']) } : {}),
      ...(temperature !== undefined
        ? {
            answerVariation: {
              temperature: share('answer-temperature', temperature),
              ...(answerSeed !== undefined
                ? { seed: integer('answer-seed', answerSeed, 0, Number.MAX_SAFE_INTEGER) }
                : {}),
            },
          }
        : {}),
      ...(values.fault ? { faults: values.fault.map(faultRule) } : {}),
      ...modeOptions(values),
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
      logger: logger(values.log ?? 'error', stderr),
    },
  };
}

function integer(flag: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      max === Number.MAX_SAFE_INTEGER
        ? `--${flag} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer, not '${value}'`
        : `--${flag} must be an integer from ${min} to ${max}, not '${value}'`,
    );
  }
  return n;
}

function share(flag: string, value: string): number {
  const n = /^\d*\.?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--${flag} must be a number from 0 to 1, not '${value}'`);
  return n;
}

function faultRule(text: string): FaultRule {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--fault must be a JSON object, e.g. '{"route":"listAgents","status":503}'`);
  }
  try {
    return checkFaultRule(parsed);
  } catch (error) {
    throw new UsageError(`--fault: ${(error as Error).message}`);
  }
}

function readJwks(value: string): JSONWebKeySet | string {
  if (/^https?:\/\//.test(value)) return value;
  try {
    return JSON.parse(readFileSync(value, 'utf8')) as JSONWebKeySet;
  } catch (error) {
    throw new UsageError(`cannot read the JWKS file ${value}: ${(error as Error).message}`);
  }
}

function logger(level: string, stderr: (line: string) => void): EmulatorLogger {
  const rank = logLevels.indexOf(level as (typeof logLevels)[number]);
  if (rank < 0) throw new UsageError(`--log must be one of ${logLevels.join(', ')}, not '${level}'`);
  const at =
    (name: (typeof logLevels)[number]) =>
    (message: string, ...details: unknown[]) => {
      if (logLevels.indexOf(name) > rank) return;
      const rest = details.map((d) => ` ${d instanceof Error ? (d.stack ?? d.message) : String(d)}`).join('');
      stderr(`[${name}] ${message}${rest}`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

// Every flag of the command line; `parse` reads them, and shells complete them.
const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'jwt-secret': { type: 'string' },
  jwks: { type: 'string' },
  'allow-jwt-without-exp': { type: 'boolean' },
  data: { type: 'string' },
  cors: { type: 'string' },
  'extension-base': { type: 'string' },
  'no-default-llm': { type: 'boolean' },
  'warm-encoder': { type: 'boolean' },
  'no-console': { type: 'boolean' },
  'agent-step-delay-ms': { type: 'string' },
  'answer-artifact-chunk-chars': { type: 'string' },
  'answer-temperature': { type: 'string' },
  'answer-seed': { type: 'string' },
  'a2a-version': { type: 'string' },
  fault: { type: 'string', multiple: true },
  record: { type: 'string' },
  cassette: { type: 'string' },
  'drift-report': { type: 'string' },
  'record-unreadable-bodies': { type: 'boolean' },
  replay: { type: 'string' },
  'replay-speed': { type: 'string' },
  'replay-ignore': { type: 'string', multiple: true },
  'replay-fallback': { type: 'string' },
  'export-on-exit': { type: 'string' },
  import: { type: 'string' },
  log: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...Object.fromEntries(limitNames.map((name) => [flagOf(name), { type: 'string' as const }])),
} as const;

/** The command line's flags as typed (`--port`, `-h`...), for shell completion. */
export const flags: readonly string[] = Object.entries(options).flatMap(([name, option]) => [
  `--${name}`,
  ...('short' in option ? [`-${option.short}`] : []),
]);

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: false, options });
}

function a2aVersion(value: string): '0.3' | '1.0' {
  if (value === '0.3' || value === '1.0') return value;
  throw new UsageError(`--a2a-version must be 0.3 or 1.0, not '${value}'`);
}

/** Record, replay and state options, checked here so a mistake is reported with the usage. */
function modeOptions(values: ReturnType<typeof parse>['values']): EmulatorOptions {
  const options: EmulatorOptions = {};
  if (values.record !== undefined) {
    if (!/^https?:\/\/[^/?#]+/.test(values.record)) {
      throw new UsageError(`--record must be the http(s) base URL of a deployment, not '${values.record}'`);
    }
    if (values.cassette === undefined) throw new UsageError('--record needs --cassette <file.har>');
    if (values.replay !== undefined) throw new UsageError('--record and --replay cannot be used together');
    options.record = values.record;
  }
  if (values.cassette !== undefined) {
    if (values.record === undefined)
      throw new UsageError('--cassette is the file --record writes: add --record <url>');
    options.cassette = values.cassette;
  }
  if (values['drift-report'] !== undefined) {
    if (values.record === undefined) throw new UsageError('--drift-report needs --record <url>');
    options.driftReport = values['drift-report'];
  }
  if (values['record-unreadable-bodies']) {
    if (values.record === undefined) throw new UsageError('--record-unreadable-bodies needs --record <url>');
    options.recordUnreadableBodies = true;
  }
  if (values.replay !== undefined) options.replay = values.replay;
  const speed = values['replay-speed'];
  if (speed !== undefined) {
    const n = /^\d+(\.\d+)?$/.test(speed) ? Number(speed) : Number.NaN;
    if (!Number.isFinite(n))
      throw new UsageError(`--replay-speed must be a non-negative number, not '${speed}'`);
    options.replaySpeed = n;
  }
  if (values['replay-ignore']) options.replayIgnore = values['replay-ignore'];
  const fallback = values['replay-fallback'];
  if (fallback !== undefined) {
    if (fallback !== 'error' && fallback !== 'emulate') {
      throw new UsageError(`--replay-fallback must be error or emulate, not '${fallback}'`);
    }
    options.replayFallback = fallback;
  }
  if ((speed ?? values['replay-ignore'] ?? fallback) !== undefined && values.replay === undefined) {
    throw new UsageError('--replay-speed, --replay-ignore and --replay-fallback need --replay <file.har>');
  }
  if (values['export-on-exit'] !== undefined) options.exportOnExit = values['export-on-exit'];
  if (values.import !== undefined) options.import = values.import;
  return options;
}
