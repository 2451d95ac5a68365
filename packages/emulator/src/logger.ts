/**
 * Where the emulator reports what happens inside it: failures of its own, and requests the A2A server
 * refused. `console` fits; any method left out is not called. Nothing is logged by default, and no line
 * carries a credential.
 */
export interface EmulatorLogger {
  debug?(message: string, ...details: unknown[]): void;
  info?(message: string, ...details: unknown[]): void;
  warn?(message: string, ...details: unknown[]): void;
  error?(message: string, ...details: unknown[]): void;
}

/** The logger the emulator calls: every level present. */
export interface Log {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

type Level = keyof Log;

/** A complete logger from the caller's (partial) one; quiet where it has no method. */
export function toLog(logger: EmulatorLogger | undefined): Log {
  const at =
    (level: Level) =>
    (message: string, ...details: unknown[]): void => {
      try {
        logger?.[level]?.(message, ...details);
      } catch {
        // A logger that throws must not take a request, or the process, down with it.
      }
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
