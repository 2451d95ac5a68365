import { Redaction } from '@dataworkz/redaction';

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

/**
 * A complete logger from the caller's (partial) one; quiet where it has no method. Every line and
 * detail is scrubbed of `secrets` (the emulator's keys) by the SDK's redaction policy: a request can
 * put a key anywhere a refusal quotes it (a method name, a path).
 */
export function toLog(
  logger: EmulatorLogger | undefined,
  secrets: readonly (string | undefined)[] = [],
): Log {
  const redaction = new Redaction(secrets);
  const at =
    (level: Level) =>
    (message: string, ...details: unknown[]): void => {
      try {
        logger?.[level]?.(redaction.text(message), ...details.map((detail) => redaction.value(detail)));
      } catch {
        // A logger that throws must not take a request, or the process, down with it.
      }
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
