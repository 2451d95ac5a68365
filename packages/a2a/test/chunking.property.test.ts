import { type AgentEvent, streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// Arbitrary chunk boundaries cannot be forced through a TCP socket, so this property alone uses a
// fetch that serves the body from memory; everything above fetch is the real pipeline.
const encoder = new TextEncoder();

function serve(bytes: Uint8Array, cuts: number[]): Dataworkz {
  return new Dataworkz({
    baseUrl: 'http://agents.test',
    apiKey: 'property-key',
    maxRetries: 0,
    fetch: async (request) => {
      const body = (await request.json()) as { id: unknown };
      const text = new TextDecoder().decode(bytes).replaceAll('"__ID__"', JSON.stringify(body.id));
      const payload = encoder.encode(text);
      const points = [...new Set(cuts.map((cut) => cut % (payload.length + 1)))].sort((a, b) => a - b);
      const chunks: Uint8Array[] = [];
      let from = 0;
      for (const point of [...points, payload.length]) {
        chunks.push(payload.subarray(from, point));
        from = point;
      }
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
      });
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
  });
}

const text = fc.string({ unit: 'grapheme', maxLength: 30 });
const update = fc.record({ step: text, progress: fc.integer({ min: 0, max: 100 }) });

function frame(result: unknown, style: { pretty: boolean; newline: string }): string {
  const json = JSON.stringify({ jsonrpc: '2.0', id: '__ID__', result }, null, style.pretty ? 2 : undefined);
  return `${json
    .split('\n')
    .map((line) => `data: ${line}`)
    .join(style.newline)}${style.newline}${style.newline}`;
}

function shape(events: AgentEvent[]): unknown[] {
  return events.map((event) => ({ type: event.type, final: event.final, raw: event.raw }));
}

describe('SSE framing', () => {
  it('any chunking of a valid stream, in any line-ending style, yields the same events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(update, { maxLength: 5 }),
        text,
        fc.record({ pretty: fc.boolean(), newline: fc.constantFrom('\n', '\r\n', '\r') }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (updates, answer, style, cuts) => {
          const results = [
            ...updates.map((data) => ({
              kind: 'status-update',
              taskId: 't',
              contextId: 'c',
              final: false,
              status: {
                state: 'working',
                message: {
                  kind: 'message',
                  role: 'agent',
                  messageId: 'u',
                  parts: [{ kind: 'data', data, metadata: { type: 'SVC_STATUS_UPDATE' } }],
                },
              },
            })),
            {
              kind: 'status-update',
              taskId: 't',
              contextId: 'c',
              final: true,
              status: {
                state: 'completed',
                message: {
                  kind: 'message',
                  role: 'agent',
                  messageId: 'f',
                  parts: [{ kind: 'text', text: answer }],
                },
              },
            },
          ];
          const bytes = encoder.encode(results.map((result) => frame(result, style)).join(''));
          const whole = serve(bytes, []);
          const chunked = serve(bytes, cuts);
          const collect = async (dw: Dataworkz) => {
            const events: AgentEvent[] = [];
            for await (const event of streamAgent(dw, 'agent', { text: 'Hi' })) events.push(event);
            return events;
          };
          const [expected, actual] = await Promise.all([collect(whole), collect(chunked)]);
          expect(shape(actual)).toEqual(shape(expected));
          expect(actual.filter((event) => event.type === 'task-update').map((event) => event.data)).toEqual(
            updates,
          );
          expect(actual.at(-1)).toMatchObject({ type: 'status', final: true, text: answer });
        },
      ),
      { numRuns: 1000 },
    );
    // A thousand streams through the SDK: seconds alone, several times that beside a full parallel run.
  }, 90_000);
});
