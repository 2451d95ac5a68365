import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { APIError } from '../core/errors.js';

/** The instrumentation scope of the client's spans and metrics. */
const CLIENT_SCOPE = '@dataworkz/client';

// Seconds, as the semantic conventions advise for both histograms.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

interface Instruments {
  provider: MeterProvider;
  operation: Histogram;
  http: Histogram;
}

let instruments: Instruments | undefined;

/**
 * The histograms, made again when the application registers another meter provider: unlike the
 * tracer, the metrics API hands out no proxy, so a meter taken before registration would stay a no-op.
 */
function histograms(): Instruments {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(CLIENT_SCOPE);
  instruments = {
    provider,
    operation: meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of GenAI operations: retrievals, answers and agent calls, retries included.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    http: meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of HTTP client requests: one per attempt.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
  return instruments;
}

const HEADERS_SETTER: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** Adds `traceparent` (and `tracestate`, baggage) for `ctx` through the registered propagator. */
export function injectTraceHeaders(ctx: Context, headers: Headers): void {
  propagation.inject(ctx, headers, HEADERS_SETTER);
}

/** What a call tells its span about itself, beyond the operation and the server. */
export interface CallTraceInfo {
  /** The span's name when not the operation's, e.g. `retrieval <systemId>`. */
  spanName?: string | undefined;
  /** The path template (`url.template`), e.g. `/api/qna/v1/systems/{systemId}/search`. */
  template?: string | undefined;
  /** `gen_ai.operation.name` for GenAI operations (retrieval, invoke_agent): also their metric. */
  genAiOperation?: string | undefined;
  /** Ids and settings worth seeing (never credentials, question text or answers). */
  attributes?: Attributes | undefined;
  /** The question or query text, recorded only when content capture is on. */
  input?: string | undefined;
}

/** The server attributes of a base URL or request URL, as the HTTP conventions name them. */
export function serverAttributes(url: URL): { 'server.address': string; 'server.port': number } {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { 'server.address': url.hostname, 'server.port': port };
}

/** `error.type` for a failure: the HTTP status for an error response, else the error's name. */
function errorType(error: unknown): string {
  if (error instanceof APIError) return String(error.status);
  return error instanceof Error ? error.name : '_OTHER';
}

/** What a caller needs to trace one call: where it goes and whether content may be recorded. */
export interface CallTraceSite {
  operation: string;
  method: string;
  server: { 'server.address': string; 'server.port': number };
  captureContent: boolean;
}

/**
 * One call's span and metrics: a CLIENT span covering every attempt (each retry an event), the
 * per-attempt `http.client.request.duration`, and `gen_ai.client.operation.duration` for GenAI
 * operations. With no provider registered, the span is a non-recording one and nothing else is built.
 */
export class CallTrace {
  /** The context requests carry (`traceparent`): the call's span, or the caller's context. */
  readonly context: Context;
  private readonly span: Span;
  private readonly site: CallTraceSite;
  private readonly info: CallTraceInfo | undefined;
  private readonly started = performance.now();
  private attemptStarted = 0;
  /** How many requests the call has sent so far. */
  attempts = 0;

  constructor(site: CallTraceSite, info: CallTraceInfo | undefined) {
    this.site = site;
    this.info = info;
    const parent = context.active();
    // Looked up per call, not kept: a ProxyTracer keeps the first provider's tracer for good, and an
    // application may register (or replace) its provider after the client is made.
    const tracer = trace.getTracer(CLIENT_SCOPE);
    this.span = tracer.startSpan(info?.spanName ?? site.operation, { kind: SpanKind.CLIENT }, parent);
    this.context = this.span.isRecording() ? trace.setSpan(parent, this.span) : parent;
    if (!this.span.isRecording()) return;
    const attributes: Attributes = {
      'http.request.method': site.method,
      ...site.server,
      'dataworkz.operation': site.operation,
    };
    if (info?.template !== undefined) attributes['url.template'] = info.template;
    if (info?.genAiOperation !== undefined) {
      attributes['gen_ai.operation.name'] = info.genAiOperation;
      attributes['gen_ai.provider.name'] = 'dataworkz';
    }
    if (info?.attributes) Object.assign(attributes, info.attributes);
    if (site.captureContent && info?.input !== undefined) {
      attributes['gen_ai.input.messages'] = messages('user', info.input);
    }
    this.span.setAttributes(attributes);
  }

  /** An attempt is about to be sent. */
  attempt(): void {
    this.attempts++;
    this.attemptStarted = performance.now();
  }

  /** The attempt got a response (`status`) or failed (`error`). */
  attemptEnded(status: number | undefined, error?: unknown): void {
    const attributes: Attributes = {
      'http.request.method': this.site.method,
      ...this.site.server,
    };
    if (this.info?.template !== undefined) attributes['url.template'] = this.info.template;
    if (status !== undefined) attributes['http.response.status_code'] = status;
    if (error !== undefined || (status !== undefined && status >= 400)) {
      attributes['error.type'] = error === undefined ? String(status) : errorType(error);
    }
    histograms().http.record((performance.now() - this.attemptStarted) / 1000, attributes);
  }

  /** A retry is coming after `delayMs`, because of `reason`. */
  retry(attempt: number, reason: string, delayMs: number): void {
    if (!this.span.isRecording()) return;
    this.span.addEvent('retry', {
      'http.request.resend_count': attempt,
      'dataworkz.retry.reason': reason,
      'dataworkz.retry.delay_ms': delayMs,
    });
  }

  /** The token was refreshed after a 401 and the call is sent again. */
  refreshed(): void {
    if (this.span.isRecording()) this.span.addEvent('token_refreshed');
  }

  /** The call succeeded with `status`; `output` is the answer text, recorded only with content capture. */
  succeeded(status: number, attempts: number, output?: string): void {
    if (this.span.isRecording()) {
      this.span.setAttribute('http.response.status_code', status);
      if (attempts > 1) this.span.setAttribute('http.request.resend_count', attempts - 1);
      if (this.site.captureContent && output !== undefined) {
        this.span.setAttribute('gen_ai.output.messages', messages('assistant', output));
      }
    }
    this.recordOperation(undefined);
    this.span.end();
  }

  /** The call failed for good with `error` (already typed and redacted). */
  failed(error: unknown, attempts: number): void {
    const type = errorType(error);
    if (this.span.isRecording()) {
      if (error instanceof APIError) this.span.setAttribute('http.response.status_code', error.status);
      if (attempts > 1) this.span.setAttribute('http.request.resend_count', attempts - 1);
      this.span.setAttribute('error.type', type);
      // The error's name only: its message may quote the server, and the server may quote the question.
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.name : type,
      });
    }
    this.recordOperation(type);
    this.span.end();
  }

  private recordOperation(errorTypeValue: string | undefined): void {
    const operation = this.info?.genAiOperation;
    if (operation === undefined) return;
    const attributes: Attributes = {
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': 'dataworkz',
      ...this.site.server,
    };
    if (errorTypeValue !== undefined) attributes['error.type'] = errorTypeValue;
    histograms().operation.record((performance.now() - this.started) / 1000, attributes);
  }
}

/** Content as the GenAI conventions' message JSON: one message with one text part. */
function messages(role: 'user' | 'assistant', text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

/** Whether `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` asks for content capture. */
export function captureContentFromEnv(env: Record<string, string | undefined>): boolean {
  return env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true';
}
