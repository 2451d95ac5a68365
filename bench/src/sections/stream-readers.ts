import { randomUUID } from 'node:crypto';
import type { MessageSendParams } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import { createParser } from 'eventsource-parser';

/** What reading one stream to its end took. */
export interface StreamReading {
  readonly events: number;
  readonly firstEventMs: number;
  readonly totalMs: number;
}

export interface StreamTarget {
  readonly url: string;
  readonly apiKey: string;
  readonly events: number;
}

export function streamEndpoint(target: StreamTarget): string {
  return `${target.url}/api/agents/v1/a2a/${streamAgentId(target.events)}/stream`;
}

export function streamAgentId(events: number): string {
  return `events-${events}`;
}

function streamParams(): MessageSendParams {
  return {
    message: {
      kind: 'message',
      role: 'user',
      messageId: randomUUID(),
      parts: [{ kind: 'text', text: 'go' }],
    },
  };
}

/** The bare baseline: fetch, eventsource-parser, JSON.parse of each event. */
export async function readWithParser(target: StreamTarget): Promise<StreamReading> {
  const started = performance.now();
  let firstEventMs = -1;
  let events = 0;
  const response = await fetch(streamEndpoint(target), {
    method: 'POST',
    headers: {
      authorization: `SSWS ${target.apiKey}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: streamParams() }),
  });
  if (!response.ok || !response.body) throw new Error(`stream request failed with HTTP ${response.status}`);
  const parser = createParser({
    onEvent(event) {
      const parsed = JSON.parse(event.data) as { result?: unknown };
      if (parsed.result === undefined) throw new Error(`stream carried an error: ${event.data}`);
      if (events === 0) firstEventMs = performance.now() - started;
      events++;
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parser.feed(decoder.decode(read.value, { stream: true }));
  }
  return checked(target, { events, firstEventMs, totalMs: performance.now() - started });
}

function sdkTransport(target: StreamTarget): JsonRpcTransport {
  const authorization = `SSWS ${target.apiKey}`;
  return new JsonRpcTransport({
    endpoint: streamEndpoint(target),
    fetchImpl: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', authorization);
      return fetch(input, { ...init, headers });
    },
  });
}

async function readEvents(
  target: StreamTarget,
  started: number,
  events: AsyncIterable<unknown>,
): Promise<StreamReading> {
  let firstEventMs = -1;
  let count = 0;
  for await (const _event of events) {
    if (count === 0) firstEventMs = performance.now() - started;
    count++;
  }
  return checked(target, { events: count, firstEventMs, totalMs: performance.now() - started });
}

/** The official SDK's own client transport, used directly. */
export async function readWithSdkTransport(target: StreamTarget): Promise<StreamReading> {
  const started = performance.now();
  return readEvents(target, started, sdkTransport(target).sendMessageStream(streamParams()));
}

/**
 * The same transport, each event handed on by an iterator of its own through one promise reaction
 * (`next().then(...)`): the least any wrapper that delivers events of its own adds.
 */
export async function readWithPassThrough(target: StreamTarget): Promise<StreamReading> {
  const started = performance.now();
  const source = sdkTransport(target).sendMessageStream(streamParams());
  const handOn = (result: IteratorResult<unknown>): IteratorResult<unknown> =>
    result.done ? result : { done: false, value: result.value };
  const wrapper: AsyncIterableIterator<unknown> = {
    next: () => source.next().then(handOn),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return readEvents(target, started, wrapper);
}

/** A reading that saw fewer events than were sent measured something else: refuse it. */
export function checked(target: StreamTarget, reading: StreamReading): StreamReading {
  if (reading.events !== target.events) {
    throw new Error(`expected ${target.events} events, read ${reading.events}`);
  }
  return reading;
}
