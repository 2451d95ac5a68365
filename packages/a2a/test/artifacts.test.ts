import { type AgentArtifactEvent, streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completed, type RawServer, requestId, sseResult, startRawServer } from './support/raw-server.js';

const chunk = (artifactId: string, parts: unknown[], append: boolean) => ({
  kind: 'artifact-update',
  taskId: 't-1',
  contextId: 'c-1',
  append,
  artifact: { artifactId, parts },
});

const CHUNKS = 1000;
let server: RawServer;
let dw: Dataworkz;

beforeAll(async () => {
  server = await startRawServer((_req, res, body) => {
    const id = requestId(body);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let text = sseResult(id, chunk('answer', [{ kind: 'text', text: 'chunk 0 ' }], false));
    for (let i = 1; i < CHUNKS; i++) {
      text += sseResult(id, chunk('answer', [{ kind: 'text', text: `chunk ${i} ` }], true));
      // A data part, and a text part with metadata, break the run of text.
      if (i === 500) {
        text += sseResult(
          id,
          chunk(
            'answer',
            [
              { kind: 'data', data: { page: 2 } },
              { kind: 'text', text: 'cited', metadata: { source: 'kb' } },
            ],
            true,
          ),
        );
      }
    }
    text += sseResult(id, chunk('sources', [{ kind: 'text', text: 'draft' }], false));
    text += sseResult(id, chunk('sources', [{ kind: 'text', text: 'kb-1' }], false));
    text += sseResult(id, chunk('sources', [{ kind: 'text', text: ', kb-2' }], true));
    res.end(text + sseResult(id, { ...completed(''), status: { state: 'completed' } }));
  });
  dw = new Dataworkz({ baseUrl: server.url, apiKey: 'artifact-key', maxRetries: 0 });
});
afterAll(() => server.close());

describe('artifacts of the final answer', () => {
  it('merges appended text chunks into one part, keeping other parts, order and replacements', async () => {
    const run = streamAgent(dw, 'agent-1', { text: 'Hi' });
    const chunks: AgentArtifactEvent[] = [];
    for await (const event of run) if (event.type === 'artifact') chunks.push(event);
    const { artifacts, answer } = await run.finalAnswer();

    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `chunk ${from + i} `).join('');
    expect(artifacts).toEqual([
      {
        artifactId: 'answer',
        parts: [
          { kind: 'text', text: range(0, 501) },
          { kind: 'data', data: { page: 2 } },
          { kind: 'text', text: 'cited', metadata: { source: 'kb' } },
          { kind: 'text', text: range(501, CHUNKS) },
        ],
      },
      // Sent again without `append`: the artifact is replaced.
      { artifactId: 'sources', parts: [{ kind: 'text', text: 'kb-1, kb-2' }] },
    ]);
    expect(answer).toBe(`${range(0, 501)}cited${range(501, CHUNKS)}kb-1, kb-2`);
    // Every chunk reached the loop as it was sent; merging never touches the events.
    expect(chunks).toHaveLength(CHUNKS + 4);
    expect(chunks[1]?.raw.artifact.parts).toEqual([{ kind: 'text', text: 'chunk 1 ' }]);
    expect(chunks[0]?.artifact.parts).toEqual([{ kind: 'text', text: 'chunk 0 ' }]);
  }, 10_000);
});
