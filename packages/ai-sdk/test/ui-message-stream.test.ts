import { streamAgent } from '@dataworkz/a2a';
import { type DataworkzUIMessage, toUIMessageStream } from '@dataworkz/ai-sdk';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { readUIMessageStream } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITING_AGENT_ID, citedDocuments, startCitingAgent } from './support/citing-agent.js';

const apiKey = 'ai-sdk-stream-key';
const orderStatus = seed.agents.orderStatus.agentId;

/** The assistant message as the AI SDK's own reader assembles it, once the stream has ended. */
async function readMessage(stream: ReadableStream<unknown>): Promise<DataworkzUIMessage> {
  let last: DataworkzUIMessage | undefined;
  for await (const message of readUIMessageStream<DataworkzUIMessage>({
    stream: stream as ReadableStream<never>,
  })) {
    last = message;
  }
  if (last === undefined) throw new Error('The stream held no message.');
  return last;
}

/** How many stream events come before the first answer chunk. */
async function countEventsBeforeChunks(client: Dataworkz): Promise<number> {
  let count = 0;
  for await (const event of streamAgent(client, orderStatus, { text: 'Where is order 1001?' })) {
    if (event.type === 'artifact') return count;
    count += 1;
  }
  throw new Error('The answer came without artifact chunks.');
}

describe('toUIMessageStream', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 5 });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off', maxRetries: 0 });
  });
  afterAll(() => emu.close());

  it('streams the task updates as data parts, then the answer as text, with the ids as metadata', async () => {
    const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
    const message = await readMessage(toUIMessageStream(run));
    const types = message.parts.map((part) => part.type);
    const firstText = types.indexOf('text');
    expect(firstText).toBeGreaterThan(0);
    // Every step comes before the answer, and the answer is one text part.
    expect(types.slice(0, firstText).every((type) => type === 'data-task-update')).toBe(true);
    expect(types.slice(firstText)).toEqual(['text']);
    const steps = message.parts.flatMap((part) => (part.type === 'data-task-update' ? [part.data] : []));
    expect(steps[0]?.type).toBe('SCENARIO_SELECTED');
    expect(steps.length).toBeGreaterThan(1);
    const text = message.parts.find((part) => part.type === 'text');
    expect(text?.type === 'text' ? text.text : '').toMatch(/1001/);
    expect(message.metadata?.state).toBe('completed');
    expect(message.metadata?.taskId).toBe(run.taskId);
    expect(message.metadata?.contextId).toBe(run.contextId);
  });

  it('a run cut in the middle of its answer chunks still streams the whole answer, once', async () => {
    const chunked = await startEmulator({
      port: 0,
      apiKeys: [apiKey],
      agentStepDelayMs: 5,
      answerArtifactChunkChars: 10,
    });
    try {
      const client = new Dataworkz({ baseUrl: chunked.url, apiKey, logLevel: 'off', maxRetries: 0 });
      const uncut = await streamAgent(client, orderStatus, { text: 'Where is order 1001?' }).finalAnswer();
      const chunks = Math.ceil(uncut.answer.length / 10);
      // Two chunks streamed, then the connection drops; the rest arrives on the resubscription.
      const eventsBeforeChunks = await countEventsBeforeChunks(client);
      chunked.faults.add({ route: 'streamAgent', dropAfterEvents: eventsBeforeChunks + 2, times: 1 });
      const run = streamAgent(client, orderStatus, {
        text: 'Where is order 1001?',
        resume: { initialDelayMs: 5, maxDelayMs: 5 },
      });
      const message = await readMessage(toUIMessageStream(run));
      const texts = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      expect(texts).toEqual([uncut.answer]);
      expect(chunks).toBeGreaterThan(3);
      const methods = chunked.requests
        .filter((request) => request.path.endsWith('/stream'))
        .map((request) => (JSON.parse(request.body) as { method: string }).method);
      expect(methods.at(-1)).toBe('tasks/resubscribe');
    } finally {
      await chunked.close();
    }
  });

  it('turns a question back into text and an input-required part, and the reply continues the task', async () => {
    const first = await readMessage(
      toUIMessageStream(streamAgent(dw, orderStatus, { text: 'Where is my order?' })),
    );
    expect(first.metadata?.state).toBe('input-required');
    const question = first.parts.find((part) => part.type === 'data-input-required');
    if (question?.type !== 'data-input-required') throw new Error('no input-required part');
    expect(question.data.taskId).toBe(first.metadata?.taskId);
    expect(question.data.contextId).toBe(first.metadata?.contextId);
    const asked = first.parts.find((part) => part.type === 'text');
    expect(asked?.type === 'text' ? asked.text : '').toBe(question.data.question);
    expect(first.parts.at(-1)?.type).toBe('data-input-required');

    const second = await readMessage(
      toUIMessageStream(
        streamAgent(dw, orderStatus, {
          text: '1001',
          taskId: question.data.taskId,
          contextId: question.data.contextId,
        }),
      ),
    );
    expect(second.metadata?.state).toBe('completed');
    expect(second.metadata?.taskId).toBe(question.data.taskId);
    const answer = second.parts.find((part) => part.type === 'text');
    expect(answer?.type === 'text' ? answer.text : '').toMatch(/1001/);
  });

  it('ends with an error part carrying the typed error’s message, without the credential', async () => {
    const wrong = new Dataworkz({ baseUrl: emu.url, apiKey: 'not-the-key', logLevel: 'off', maxRetries: 0 });
    const errors: string[] = [];
    const chunks: { type: string; errorText?: string }[] = [];
    const reader = toUIMessageStream(
      streamAgent(wrong, orderStatus, { text: 'Where is order 1001?' }),
    ).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    for (const chunk of chunks) if (chunk.type === 'error') errors.push(chunk.errorText ?? '');
    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'error']);
    expect(errors[0]).toMatch(/401|auth|key|credential/i);
    expect(errors[0]).not.toContain('not-the-key');
  });

  it('writes the error part’s text with onError when the run is cut off', async () => {
    const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
    const chunks: { type: string; errorText?: string }[] = [];
    const stream = toUIMessageStream(run, { onError: (error) => `failed: ${String(error)}` });
    const reader = stream.getReader();
    // The first chunk is the start; then the run is cut off from outside.
    chunks.push((await reader.read()).value as { type: string });
    run.abort(new Error('user left'));
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(chunks[0]?.type).toBe('start');
    expect(chunks.at(-1)?.type).toBe('error');
    expect(chunks.at(-1)?.errorText).toMatch(/^failed: /);
  });

  it('stops the agent run when the reader cancels the stream', async () => {
    const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
    const reader = toUIMessageStream(run).getReader();
    await reader.read();
    await reader.cancel('client went away');
    await expect(run.finalAnswer()).rejects.toThrow();
  });
});

describe('toUIMessageStream with an agent that cites documents', () => {
  let agent: Awaited<ReturnType<typeof startCitingAgent>>;
  beforeAll(async () => {
    agent = await startCitingAgent();
  });
  afterAll(() => agent.close());

  it('gives each cited document once, as a source-url part with its title, in the order cited', async () => {
    const dw = new Dataworkz({ baseUrl: agent.url, apiKey: 'any-key', logLevel: 'off', maxRetries: 0 });
    const message = await readMessage(
      toUIMessageStream(streamAgent(dw, CITING_AGENT_ID, { text: 'Returns?' })),
    );
    const sources = message.parts.filter((part) => part.type === 'source-url');
    const distinct = [...new Map(citedDocuments.map((file) => [file.uri, file])).values()];
    expect(sources.map((part) => ({ url: part.url, title: part.title }))).toEqual(
      distinct.map((file) => ({ url: file.uri, title: file.name })),
    );
    expect(new Set(sources.map((part) => part.sourceId)).size).toBe(sources.length);
    const text = message.parts.find((part) => part.type === 'text');
    expect(text?.type === 'text' && text.text).toBe('Returns are accepted within 30 days [1][2].');
    expect(message.metadata?.state).toBe('completed');
  });
});
