/** How much the client logs, from nothing (`off`) to every request (`debug`). */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where log lines go; `console` fits. `data` is already redacted. */
export interface Logger {
  error(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  debug(message: string, data?: Record<string, unknown>): void;
}
