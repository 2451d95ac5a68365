import {
  type Attributes,
  context,
  type Histogram,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { AgentLink } from './agent.js';
import type { FinalAnswer } from './answer.js';
import type { AgentEvent } from './events.js';

const SCOPE = '@dataworkz/a2a';
const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

let instruments: { provider: MeterProvider; duration: Histogram } | undefined;

/** The operation histogram, made again when the application registers another meter provider. */
function durationHistogram(): Histogram {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider !== provider) {
    const duration = provider.getMeter(SCOPE).createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of agent runs, from the message sent to the run’s end, resumes included.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    instruments = { provider, duration };
  }
  return instruments.duration;
}

/** A message of the GenAI conventions, made of one text part. */
function messages(role: string, content: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
}

// The task update's fields a span event carries, each as `dataworkz.task_update.<its snake_case name>`.
const UPDATE_FIELDS = ['name', 'scenario', 'tool', 'toolType', 'status'] as const;

/** An agent run's `invoke_agent` span and duration metric; the run's requests are sent inside `context`. */
export class RunTrace {
  /** Made where `streamAgent` is called: the run's span goes under whatever span is active there. */
  private readonly parent = context.active();
  /** Where the run's requests are made: the span's context once it started, else the caller's. */
  context = this.parent;
  /** What the span and the duration metric both carry. */
  private readonly common: Attributes;
  /** The agent's name, when its card has been read by the time the run is made. */
  private readonly agentName: string | undefined;
  private span: Span | undefined;
  private started = 0;
  private taskId: string | undefined;
  private contextId: string | undefined;

  /** `input`, the user's text, is recorded only with content capture. */
  constructor(
    private readonly agent: AgentLink,
    private readonly input: string | undefined,
  ) {
    this.agentName = agent.knownCard?.name;
    // `server.address` and `server.port`, as the HTTP conventions name them.
    const url = new URL(agent.dw.baseUrl);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const server = { 'server.address': url.hostname, 'server.port': port };
    this.common = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'dataworkz', ...server };
  }

  start(): void {
    const { agentName, input } = this;
    const { agentId } = this.agent;
    const name = `invoke_agent ${agentName ?? agentId}`;
    const span = trace.getTracer(SCOPE).startSpan(name, { kind: SpanKind.CLIENT }, this.parent);
    this.span = span;
    this.started = performance.now();
    if (!span.isRecording()) return;
    this.context = trace.setSpan(this.parent, span);
    const attributes: Attributes = { ...this.common, 'gen_ai.agent.id': agentId };
    if (agentName !== undefined) attributes['gen_ai.agent.name'] = agentName;
    if (this.agent.dw.captureContent && input !== undefined) {
      attributes['gen_ai.input.messages'] = messages('user', input);
    }
    span.setAttributes(attributes);
  }

  get recording(): boolean {
    return this.span?.isRecording() === true;
  }

  event(event: AgentEvent): void {
    const span = this.span;
    if (span === undefined || !span.isRecording()) return;
    if (event.taskId !== undefined && event.taskId !== this.taskId) {
      this.taskId = event.taskId;
      span.setAttribute('dataworkz.task.id', event.taskId);
    }
    if (event.contextId !== undefined && event.contextId !== this.contextId) {
      this.contextId = event.contextId;
      span.setAttribute('gen_ai.conversation.id', event.contextId);
    }
    if (event.type === 'task-update') {
      const { data } = event;
      const attributes: Attributes = { 'dataworkz.task_update.type': String(data.type) };
      for (const field of UPDATE_FIELDS) {
        const name = field === 'toolType' ? 'tool_type' : field;
        if (data[field] !== undefined) attributes[`dataworkz.task_update.${name}`] = data[field];
      }
      // What the agent says it does may quote the user: content.
      if (this.agent.dw.captureContent && data.message !== undefined) {
        attributes['dataworkz.task_update.message'] = data.message;
      }
      span.addEvent('task_update', attributes);
    } else if (event.type === 'resumed') {
      span.addEvent('resumed', {
        'dataworkz.resume.via': event.via,
        'dataworkz.resume.attempts': event.attempts,
        'dataworkz.resume.gap_ms': Math.round(event.gapMs),
        'error.type': event.error.name,
      });
    } else if ((event.type === 'status' || event.type === 'task') && event.state !== undefined) {
      span.addEvent('status', { 'dataworkz.task.state': event.state });
    }
  }

  /** The run ended with its answer (the task completed, or asks for input). */
  answered(answer: FinalAnswer): void {
    const span = this.span;
    if (span?.isRecording()) {
      span.setAttribute('dataworkz.task.state', answer.state);
      if (this.agent.dw.captureContent) {
        span.setAttribute('gen_ai.output.messages', messages('assistant', answer.answer));
      }
    }
    this.end(undefined);
  }

  /** The run ended with `error`: a failed or cancelled task, a break it could not get over, an abort. */
  failed(error: unknown): void {
    const type = error instanceof Error ? error.name : '_OTHER';
    const span = this.span;
    if (span?.isRecording()) {
      const state = (error as { state?: unknown }).state;
      if (typeof state === 'string') span.setAttribute('dataworkz.task.state', state);
      span.setAttribute('error.type', type);
      // The name only: an error's message may quote the agent.
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    this.end(type);
  }

  private end(errorType: string | undefined): void {
    const span = this.span;
    if (span === undefined) return;
    this.span = undefined;
    const attributes = errorType === undefined ? this.common : { ...this.common, 'error.type': errorType };
    durationHistogram().record((performance.now() - this.started) / 1000, attributes);
    span.end();
  }
}
