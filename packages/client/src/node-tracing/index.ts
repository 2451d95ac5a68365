/**
 * OpenTelemetry start-up for a Node program of this SDK (the `dataworkz` CLI, the MCP server), from
 * the standard `OTEL_*` variables. Reading what is asked loads nothing; the SDK loads when tracing
 * starts. Not for applications: an application registers its own SDK, and the client's spans join it.
 *
 * @packageDocumentation
 */
import type { Span, SpanStatusCode } from '@opentelemetry/api';
import type { TracedProgram, Tracing } from './sdk.js';
import type { TracesExporter } from './wanted.js';

export type { TracedProgram, Tracing } from './sdk.js';
export { type TracesExporter, type TracesWanted, tracesWanted } from './wanted.js';

// `SpanStatusCode.ERROR` by its value: importing the enum would load the OpenTelemetry API (some fifty
// modules) into every start of a program that only reads whether traces are wanted.
const statusError: SpanStatusCode.ERROR = 2;

/**
 * Loads the OpenTelemetry SDK and registers the global tracer provider (batching to `exporters`), the
 * W3C trace-context and baggage propagator and an AsyncLocalStorage context manager, as an
 * application does, so the clients' spans nest under the program's and their requests carry
 * `traceparent`. The SDK packages are this entry's optional peer dependencies.
 */
export async function startTracing(
  exporters: readonly TracesExporter[],
  program: TracedProgram,
): Promise<Tracing> {
  const { registerTracing } = await import('./sdk.js');
  return registerTracing(exporters, program);
}

/**
 * Marks a program's span (a command, a tool call) failed by `error`: `error.type` and the status
 * message are the error's name only, as its message may quote what the service echoed of the question.
 */
export function failSpan(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: statusError, message: type });
}
