import { Dataworkz, filter } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import {
  DataworkzAnswerRetriever,
  DataworkzRetriever,
  isAnswerDocument,
  splitAnswer,
} from '@dataworkz/langchain';
import type { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { FakeChatModel, FakeListChatModel } from '@langchain/core/utils/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const apiKey = 'langchain-retriever-key';
const supportKb = seed.systems.supportKb.systemId;

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'Answer from these passages only:\n{context}'],
  ['human', '{question}'],
]);

const formatDocuments = RunnableLambda.from((documents: Document[]) =>
  documents.map((document) => document.pageContent).join('\n---\n'),
);

describe('DataworkzRetriever', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('feeds the passages it finds into an LCEL chain, as the prompt the model receives', async () => {
    const retriever = new DataworkzRetriever({ client: dw, systemId: supportKb, maxResults: 3 });
    // FakeChatModel answers with the text of the messages it receives: the prompt as the chain built it.
    const chain = RunnableSequence.from([
      { context: retriever.pipe(formatDocuments), question: new RunnablePassthrough() },
      prompt,
      new FakeChatModel({}),
      new StringOutputParser(),
    ]);
    const seen = await chain.invoke('How long do I have to return an item?');
    const documents = await retriever.invoke('How long do I have to return an item?');
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.length).toBeLessThanOrEqual(3);
    for (const document of documents) expect(seen).toContain(document.pageContent);
    expect(seen).toContain('How long do I have to return an item?');
  });

  it('gives each document the passage as content and its source, link, id, score and system as metadata', async () => {
    const retriever = new DataworkzRetriever({ client: dw, systemId: supportKb });
    const query = 'return policy';
    const documents = await retriever.invoke(query);
    const direct = await dw.qna.search(supportKb, { query });
    expect(documents.map((document) => document.pageContent)).toEqual(
      direct.searchResultsList.map((item) => item.data ?? item.contents ?? ''),
    );
    const [first] = documents;
    const item = direct.searchResultsList[0];
    expect(first?.metadata).toMatchObject({
      systemId: supportKb,
      source: item?.source,
      link: item?.link,
      score: item?.similarityScore,
      answer: false,
    });
    expect(first?.metadata.documentId).toMatch(/\S/);
    expect(first?.metadata.metadata).toMatchObject({ topic: expect.any(String) });
  });

  it('applies a filter built with the client: only matching passages come back', async () => {
    const retriever = new DataworkzRetriever({
      client: dw,
      systemId: supportKb,
      filter: filter.in('topic', ['warranty']),
    });
    const documents = await retriever.invoke('how long is it covered');
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) expect(document.metadata.metadata?.topic).toBe('warranty');
    const sent = emu.requests.at(-1);
    expect(sent?.path).toBe(`/api/qna/v1/systems/${supportKb}/search`);
    expect(decodeURIComponent(sent?.query ?? '')).toContain('warranty');
  });

  it('refuses a missing system at construction, and surfaces the client’s typed error for a wrong key', async () => {
    expect(() => new DataworkzRetriever({ client: dw, systemId: '' })).toThrow(TypeError);
    expect(() => new DataworkzRetriever({ client: dw, systemId: supportKb, maxResults: 0 })).toThrow(
      /maxResults/,
    );
    const wrong = new Dataworkz({ baseUrl: emu.url, apiKey: 'not-the-key', maxRetries: 0, logLevel: 'off' });
    const retriever = new DataworkzRetriever({ client: wrong, systemId: supportKb });
    const failure = await retriever.invoke('anything').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('AuthenticationError');
    expect(String((failure as Error).message)).not.toContain('not-the-key');
  });
});

describe('DataworkzAnswerRetriever', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('returns the contexts, then the generated answer as one flagged document', async () => {
    const retriever = new DataworkzAnswerRetriever({ client: dw, systemId: supportKb });
    const question = 'How long do I have to return an item?';
    const documents = await retriever.invoke(question);
    const answer = documents.at(-1);
    expect(answer && isAnswerDocument(answer)).toBe(true);
    expect(answer?.metadata).toMatchObject({ systemId: supportKb, question, answer: true });
    const contexts = documents.slice(0, -1);
    expect(contexts.length).toBeGreaterThan(0);
    expect(contexts.some(isAnswerDocument)).toBe(false);
    // The same question asked directly: the same answer, written from the same passages.
    const llmProviderId = answer && isAnswerDocument(answer) ? answer.metadata.llmProviderId : '';
    const direct = await dw.qna.answer(supportKb, { questionText: question, llmProviderId });
    expect(answer?.pageContent).toBe(direct.answer);
    expect(splitAnswer(documents).contexts.map((document) => document.metadata.link)).toEqual(
      direct.context.map((item) => item.link),
    );
  });

  it('reads the system’s LLM configurations once, then answers in a chain that uses both parts', async () => {
    emu.clearRequests();
    const retriever = new DataworkzAnswerRetriever({ client: dw, systemId: supportKb });
    const chain = RunnableSequence.from([
      retriever,
      RunnableLambda.from((documents: Document[]) => {
        const answer = documents.find(isAnswerDocument);
        const sources = documents.filter((document) => !isAnswerDocument(document));
        return `${answer?.pageContent}\n(${sources.length} sources)`;
      }),
    ]);
    const first = await chain.invoke('What does the warranty cover?');
    const second = await chain.invoke('How do I return an item?');
    expect(first).toMatch(/\(\d+ sources\)$/);
    expect(second).toMatch(/\(\d+ sources\)$/);
    const paths = emu.requests.map((request) => request.path);
    expect(paths.filter((path) => path.endsWith('/llm-providers'))).toHaveLength(1);
    expect(paths.filter((path) => path.endsWith('/answer'))).toHaveLength(2);
  });

  it('answers with the LLM configuration given, looked up once, and passes the answer on to a model', async () => {
    const llms = await dw.qna.llmProviders(supportKb);
    const llmProviderId = Object.keys(llms).at(-1) as string;
    emu.clearRequests();
    const retriever = new DataworkzAnswerRetriever({ client: dw, systemId: supportKb, llmProviderId });
    const model = new FakeListChatModel({ responses: ['Thirty days.'] });
    const chain = RunnableSequence.from([
      { context: retriever.pipe(formatDocuments), question: new RunnablePassthrough() },
      prompt,
      model,
      new StringOutputParser(),
    ]);
    expect(await chain.invoke('How long do I have to return an item?')).toBe('Thirty days.');
    const answered = emu.requests.find((request) => request.path.endsWith('/answer'));
    expect(decodeURIComponent(answered?.query ?? '')).toContain(llmProviderId);
    // The LLM given is looked up once among the system's (an id or a model name): one list, not one per question.
    await chain.invoke('Can I return a gift?');
    expect(emu.requests.filter((request) => request.path.endsWith('/llm-providers'))).toHaveLength(1);
  });
});
