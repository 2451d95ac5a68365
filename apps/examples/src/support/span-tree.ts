// Prints finished spans as a tree: each span under its parent, with its duration and the attributes
// worth reading (ids, status codes, errors), and its events (retries, task updates) beneath it.
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { dim, item, red } from './output.js';

const SHOWN = [
  'gen_ai.operation.name',
  'gen_ai.data_source.id',
  'gen_ai.agent.id',
  'gen_ai.agent.name',
  'gen_ai.conversation.id',
  'dataworkz.task.id',
  'url.template',
  'http.response.status_code',
  'error.type',
];
// A long agent run can report many updates: the first few tell the story.
const EVENTS_SHOWN = 6;

function durationMs(span: ReadableSpan): string {
  const [seconds, nanos] = span.duration;
  return `${(seconds * 1e3 + nanos / 1e6).toFixed(1)} ms`;
}

function attributesOf(span: ReadableSpan): string {
  return SHOWN.filter((key) => span.attributes[key] !== undefined)
    .map((key) => `${key}=${String(span.attributes[key])}`)
    .join(' ');
}

/** An event's attributes by their last name part: `type=TOOL tool=orders_db` for a task update. */
function eventDetails(attributes: Record<string, unknown> | undefined): string {
  return Object.entries(attributes ?? {})
    .map(([key, value]) => `${key.slice(key.lastIndexOf('.') + 1)}=${String(value)}`)
    .join(' ');
}

export function printSpanTree(spans: readonly ReadableSpan[]): void {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    // A span whose parent was not recorded here (or has none) is a root.
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const print = (span: ReadableSpan, depth: number) => {
    const indent = '  '.repeat(depth);
    const failed = span.status.code === 2 ? red(' ERROR') : '';
    const details = [durationMs(span), attributesOf(span)].filter((part) => part !== '').join('  ');
    item(`${indent}${span.name}${failed} ${dim(details)}`);
    for (const event of span.events.slice(0, EVENTS_SHOWN)) {
      item(`${indent}  ${dim(`· ${event.name} ${eventDetails(event.attributes)}`)}`);
    }
    if (span.events.length > EVENTS_SHOWN) {
      item(`${indent}  ${dim(`· … ${span.events.length - EVENTS_SHOWN} more events`)}`);
    }
    const below = (children.get(span.spanContext().spanId) ?? []).sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    for (const child of below) print(child, depth + 1);
  };
  for (const root of children.get(undefined) ?? []) print(root, 0);
}
