import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/** An in-memory metric reader: `collect()` reads the meters on demand, each time what came since the last. */
class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The OpenTelemetry SDK as an application sets it up: global tracer, meter, propagator and context. */
export interface Telemetry {
  spans(): ReadableSpan[];
  /** The histogram points recorded under `name` since the last `reset()`. */
  histogram(name: string): Promise<DataPoint<Histogram>[]>;
  reset(): Promise<void>;
  /** Unregisters everything: the API falls back to its no-ops. */
  disable(): void;
}

export function registerTelemetry(): Telemetry {
  const exporter = new InMemorySpanExporter();
  // The SDK's tracer provider (what BasicTracerProvider became in SDK 3).
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  let points: DataPoint<Histogram>[] = [];
  let pointNames: string[] = [];
  const collect = async (): Promise<void> => {
    const { resourceMetrics } = await reader.collect();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        for (const point of metric.dataPoints as DataPoint<Histogram>[]) {
          points.push(point);
          pointNames.push(metric.descriptor.name);
        }
      }
    }
  };
  return {
    spans: () => exporter.getFinishedSpans(),
    async histogram(name) {
      await collect();
      return points.filter((_, index) => pointNames[index] === name);
    },
    async reset() {
      exporter.reset();
      await collect();
      points = [];
      pointNames = [];
    },
    disable() {
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}
