import { DataworkzError } from '../core/errors.js';
import type { Logger, LogLevel } from '../core/logger.js';

const LEVELS: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const DEFAULT_LEVEL: LogLevel = 'warn';

function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LEVELS, value);
}

/** A logger that drops lines below its level; the level check is a number comparison. */
export class Log {
  readonly level: LogLevel;
  private readonly rank: number;
  private readonly sink: Logger;

  constructor(level: LogLevel, sink: Logger) {
    this.level = level;
    this.rank = LEVELS[level];
    this.sink = sink;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return this.rank >= LEVELS[level];
  }

  error(message: string, data?: Record<string, unknown>): void {
    if (this.rank >= 1) this.sink.error(`[dataworkz] ${message}`, data);
  }

  warn(message: string, data?: Record<string, unknown>): void {
    if (this.rank >= 2) this.sink.warn(`[dataworkz] ${message}`, data);
  }

  info(message: string, data?: Record<string, unknown>): void {
    if (this.rank >= 3) this.sink.info(`[dataworkz] ${message}`, data);
  }

  debug(message: string, data?: Record<string, unknown>): void {
    if (this.rank >= 4) this.sink.debug(`[dataworkz] ${message}`, data);
  }
}

/** The level from the option, else `DATAWORKZ_LOG`, else `warn`. An unknown option value is an error. */
export function resolveLogLevel(option: LogLevel | undefined, env: string | undefined): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) {
      throw new DataworkzError(`logLevel must be one of ${Object.keys(LEVELS).join(', ')}`);
    }
    return option;
  }
  const fromEnv = env?.trim().toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : DEFAULT_LEVEL;
}
