import { ExportResultCode, hrTimeToMicroseconds } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * `OTEL_TRACES_EXPORTER=console`, on stderr: the SDK's console exporter writes to stdout, which
 * carries the command's output (and the MCP protocol). One JSON line per span.
 */
export class StderrSpanExporter implements SpanExporter {
  readonly #write: (text: string) => void;

  /** `write`: the program's stderr. */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    for (const span of spans) {
      const { traceId, spanId } = span.spanContext();
      const line = {
        name: span.name,
        traceId,
        spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        kind: span.kind,
        timestamp: hrTimeToMicroseconds(span.startTime),
        durationMicros: hrTimeToMicroseconds(span.duration),
        status: span.status,
        attributes: span.attributes,
        events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        scope: span.instrumentationScope.name,
      };
      this.#write(`${JSON.stringify(line)}\n`);
    }
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {}
}
