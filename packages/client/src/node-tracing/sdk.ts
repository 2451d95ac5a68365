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

// How long exporting what is left may hold the exit when the collector is slow or gone.
const SHUTDOWN_LIMIT_MS = 5_000;

function exporterOf(name: TracesExporter, stderr: (text: string) => void): SpanExporter {
  // The OTLP exporter reads its endpoint, headers and time-out from the OTEL_EXPORTER_OTLP_* variables.
  return name === 'otlp' ? new OTLPTraceExporter() : new StderrSpanExporter(stderr);
}

/** The program whose spans are exported. */
export interface TracedProgram {
  /** `service.name` (`OTEL_SERVICE_NAME` wins). */
  name: string;
  /** `service.version`. */
  version: string;
  /** The program's stderr: the `console` exporter's lines and export failures go there. */
  stderr: (text: string) => void;
}

/** The registered SDK: `shutdown` exports what is left and stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** What `startTracing` does once the SDK is loaded: see there. */
export function registerTracing(exporters: readonly TracesExporter[], program: TracedProgram): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': program.name, 'service.version': program.version }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    spanProcessors: exporters.map(
      (name) => new BatchSpanProcessor({ exporter: exporterOf(name, program.stderr) }),
    ),
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
        let timer: ReturnType<typeof setTimeout> | undefined;
        const limit = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_LIMIT_MS);
          // The limit must not hold the exit by itself.
          (timer as { unref?: () => void }).unref?.();
        });
        const flushed = provider
          .forceFlush()
          .then(() => provider.shutdown())
          .catch((error: unknown) => {
            program.stderr(
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
