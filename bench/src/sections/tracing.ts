import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { SimpleSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';

/** An exporter that takes every span and sends it nowhere: the cost measured is the SDK's and ours. */
const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

/**
 * The OpenTelemetry SDK as an application registers it (tracer provider with a span processor, the
 * W3C propagator, an AsyncLocalStorage context manager), switched on and off around a block of calls.
 */
export class Tracing {
  readonly #provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: noopExporter })],
  });
  readonly #propagator = new W3CTraceContextPropagator();
  readonly #contextManager = new AsyncLocalStorageContextManager();

  on(): void {
    context.setGlobalContextManager(this.#contextManager.enable());
    propagation.setGlobalPropagator(this.#propagator);
    trace.setGlobalTracerProvider(this.#provider);
  }

  off(): void {
    trace.disable();
    propagation.disable();
    context.disable();
    this.#contextManager.disable();
  }
}
