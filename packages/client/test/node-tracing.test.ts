// The OpenTelemetry start-up the CLI and the MCP server share: what the standard variables ask for,
// and the console exporter writing its spans to the program's stderr.
import { failSpan, startTracing, tracesWanted } from '@dataworkz/client/node-tracing';
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

describe('tracesWanted', () => {
  it('exports nothing unless asked', () => {
    expect(tracesWanted({})).toEqual({ exporters: [], warnings: [] });
  });

  it('an OTLP endpoint alone means otlp', () => {
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).exporters).toEqual([
      'otlp',
    ]);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318' }).exporters).toEqual([
      'otlp',
    ]);
  });

  it('OTEL_TRACES_EXPORTER names the exporters, once each; none turns them off', () => {
    expect(tracesWanted({ OTEL_TRACES_EXPORTER: ' OTLP, console ,otlp' }).exporters).toEqual([
      'otlp',
      'console',
    ]);
    expect(tracesWanted({ OTEL_TRACES_EXPORTER: 'console,none' }).exporters).toEqual([]);
  });

  it('OTEL_SDK_DISABLED=true wins over everything', () => {
    expect(
      tracesWanted({
        OTEL_SDK_DISABLED: 'TRUE',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'x',
      }),
    ).toEqual({ exporters: [], warnings: [] });
  });

  it('warns of an unknown exporter and of a protocol other than http/json', () => {
    expect(
      tracesWanted({ OTEL_TRACES_EXPORTER: 'zipkin,otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toEqual({
      exporters: ['otlp'],
      warnings: [
        'OTEL_TRACES_EXPORTER: "zipkin" is not supported (otlp, console, none).',
        'OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; traces are sent as http/json.',
      ],
    });
  });
});

describe('startTracing', () => {
  it('with the console exporter, writes one JSON line per span to the program’s stderr on shutdown', async () => {
    const lines: string[] = [];
    const tracing = await startTracing(['console'], {
      name: 'test-program',
      version: '1.2.3',
      stderr: (text) => lines.push(text),
    });
    trace.getTracer('node-tracing-test').startActiveSpan('outer', (outer) => {
      const inner = trace.getTracer('node-tracing-test').startSpan('inner');
      failSpan(inner, new TypeError('Where is order 1001?'));
      inner.end();
      outer.end();
    });
    await tracing.shutdown();
    // A second shutdown is the first's.
    await tracing.shutdown();
    const spans = lines.map(
      (line) =>
        JSON.parse(line) as {
          name: string;
          spanId: string;
          parentSpanId?: string;
          status: { code: number; message?: string };
          attributes: Record<string, unknown>;
        },
    );
    expect(lines.every((line) => line.endsWith('\n'))).toBe(true);
    expect(spans.map((span) => span.name).sort()).toEqual(['inner', 'outer']);
    const outer = spans.find((span) => span.name === 'outer');
    expect(spans.find((span) => span.name === 'inner')?.parentSpanId).toBe(outer?.spanId);
    // failSpan: the error's name, never its message (which may quote the question).
    const inner = spans.find((span) => span.name === 'inner');
    expect(inner?.status).toEqual({ code: 2, message: 'TypeError' });
    expect(inner?.attributes['error.type']).toBe('TypeError');
    expect(lines.join('')).not.toContain('order 1001');
  });
});
