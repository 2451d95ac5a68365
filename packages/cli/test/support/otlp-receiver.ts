import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}
interface TracesRequest {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans: { scope?: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

/** A span as received, its attributes and its resource's as plain values. */
interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: number;
  scope: string | undefined;
  statusCode: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

function plain(attributes: KeyValue[] = []): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) values[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return values;
}

/** A local OTLP/HTTP trace receiver: POST /v1/traces with JSON bodies, as a collector accepts them. */
export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every request body received, as text. */
  bodies: string[];
  spans(): ReceivedSpan[];
  /** Waits (bounded) until a span named `name` has arrived. */
  waitForSpan(name: string, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const received: ReceivedSpan[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse, body: string) => {
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      response.writeHead(415).end();
      return;
    }
    bodies.push(body);
    const parsed = JSON.parse(body) as TracesRequest;
    for (const resourceSpans of parsed.resourceSpans) {
      const resource = plain(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans) {
        for (const span of scopeSpans.spans) {
          received.push({
            name: span.name,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId === '' ? undefined : span.parentSpanId,
            kind: span.kind,
            scope: scopeSpans.scope?.name,
            statusCode: span.status?.code ?? 0,
            attributes: plain(span.attributes),
            resource,
          });
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    spans: () => [...received],
    async waitForSpan(name, timeoutMs = 10_000) {
      for (let waited = 0; waited <= timeoutMs; waited += 20) {
        const span = received.find((candidate) => candidate.name === name);
        if (span) return span;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`No span named ${name}; received: ${received.map((span) => span.name).join(', ')}`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
