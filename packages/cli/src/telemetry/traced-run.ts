import { startTracing, type TracesExporter } from '@dataworkz/client/node-tracing';
import { cliVersion } from '../version.js';
import { CommandSpans } from './command-span.js';

/** The CLI's tracing, set up only when asked: the SDK registered and a span per command. */
export interface CommandTracing {
  run(path: readonly string[], work: () => Promise<unknown>): Promise<unknown>;
  /** Ends the open command span as interrupted. */
  interrupt(exitCode: number): void;
  /** Exports what is left; the CLI awaits it before exiting. */
  shutdown(): Promise<void>;
}

export async function startCommandTracing(exporters: readonly TracesExporter[]): Promise<CommandTracing> {
  const tracing = await startTracing(exporters, {
    name: 'dataworkz',
    version: cliVersion,
    stderr: (text) => process.stderr.write(text),
  });
  const spans = new CommandSpans();
  return {
    run: (path, work) => spans.run(path, work),
    interrupt: (exitCode) => spans.interrupt(exitCode),
    shutdown: () => tracing.shutdown(),
  };
}
