// Twin of mcp/src/telemetry/sdk.ts (the two commands share no internal package): change both.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { StderrSpanExporter } from './stderr-exporter.js';
import type { TracesExporter } from './wanted.js';

/** The registered SDK: `shutdown` exports what is left and stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

// How long exporting what is left may hold the exit when the collector is slow or gone.
const SHUTDOWN_LIMIT_MS = 5_000;

function exporterOf(name: TracesExporter): SpanExporter {
  // The OTLP exporter reads its endpoint, headers and time-out from the OTEL_EXPORTER_OTLP_* variables.
  return name === 'otlp' ? new OTLPTraceExporter() : new StderrSpanExporter();
}

/**
 * Registers the global tracer provider (batching to the exporters), the W3C trace-context and baggage
 * propagator and an AsyncLocalStorage context manager, as an application does, so the clients' spans
 * nest under this program's and their requests carry `traceparent`.
 */
export function startTracing(
  exporters: readonly TracesExporter[],
  service: { name: string; version: string },
): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': service.name, 'service.version': service.version }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    spanProcessors: exporters.map((name) => new BatchSpanProcessor({ exporter: exporterOf(name) })),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
  let stopped: Promise<void> | undefined;
  return {
    shutdown() {
      stopped ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const limit = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_LIMIT_MS).unref();
        });
        const flushed = provider
          .forceFlush()
          .then(() => provider.shutdown())
          .catch((error: unknown) => {
            process.stderr.write(
              `Exporting traces failed: ${error instanceof Error ? error.message : String(error)}\n`,
            );
          });
        await Promise.race([flushed, limit]);
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}
