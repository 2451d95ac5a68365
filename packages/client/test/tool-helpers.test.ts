import {
  Dataworkz,
  DataworkzError,
  filterOfFields,
  InvalidParameterError,
  NoAnsweringLlmError,
  passageOf,
  UnknownNameError,
} from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFolder } from '../../emulator/test/support/data-folder.js';

// What every surface (the MCP server, the AI SDK and LangChain tools, the CLI) decides the same way.
const { supportKb } = seed.systems;
let emu: Emulator;
let dw: Dataworkz;
let folder: Awaited<ReturnType<typeof dataFolder>>;

beforeAll(async () => {
  folder = await dataFolder([{ name: 'No LLM', systemId: 'no-llm', llms: {} }]);
  emu = await startEmulator({ port: 0, data: folder.dir, embed: false });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, logLevel: 'off', maxRetries: 0 });
});
afterAll(async () => {
  await emu.close();
  await folder.remove();
});

describe('qna.answeringLlm', () => {
  it("answers with the system's first LLM when none is named, else the one named by id or model name", async () => {
    const llms = Object.entries(await dw.qna.llmProviders(supportKb.systemId));
    const [first, last] = [llms[0], llms.at(-1)] as [[string, string], [string, string]];
    expect(await dw.qna.answeringLlm(supportKb.systemId)).toEqual({
      llmProviderId: first[0],
      name: first[1],
    });
    expect(await dw.qna.answeringLlm(supportKb.systemId, last[1].toUpperCase())).toEqual({
      llmProviderId: last[0],
      name: last[1],
    });
    await expect(dw.qna.answeringLlm(supportKb.systemId, 'no such model')).rejects.toBeInstanceOf(
      UnknownNameError,
    );
  });

  it('rejects with NoAnsweringLlmError, in one wording, when the system lists no LLM', async () => {
    const error = await dw.qna.answeringLlm('no-llm').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnsweringLlmError);
    expect(error).toBeInstanceOf(DataworkzError);
    expect(error).toMatchObject({ name: 'NoAnsweringLlmError', systemId: 'no-llm' });
    expect((error as Error).message).toBe('QnA system no-llm has no LLM configuration to answer with.');
  });
});

describe('passageOf', () => {
  it("gives a search result's passage: its text, source, link, document, score and metadata", async () => {
    const { searchResultsList } = await dw.qna.search(supportKb.systemId, { query: 'returns policy' });
    const item = searchResultsList[0];
    if (item === undefined) throw new Error('the search found nothing');
    const passage = passageOf(item);
    expect(passage).toMatchObject({
      text: item.data ?? item.contents,
      source: item.source,
      link: item.link,
      score: item.similarityScore,
      metadata: item.metadata,
      documentId: expect.any(String),
    });
    expect(Object.keys(passage)).not.toContain('fields');
  });

  it('leaves out what the item does not say', () => {
    expect(passageOf({ source: 's', link: 'l', contents: 'c' } as never)).toEqual({
      text: 'c',
      source: 's',
      link: 'l',
    });
  });
});

describe('filterOfFields', () => {
  it('is each field one of its values, values quoted so they cannot change the structure', () => {
    expect(filterOfFields(undefined)).toBeUndefined();
    expect(filterOfFields({})).toBeUndefined();
    expect(String(filterOfFields({ topic: ["x') or (1=1"], 'meta.year': [2025, 2026] }))).toBe(
      "topic in ('x'') or (1=1') and meta.year in (2025, 2026)",
    );
  });

  it('refuses a field name that is no identifier, in the filter builder’s words', () => {
    expect(() => filterOfFields({ 'topic) or (1': ['a'] })).toThrow(InvalidParameterError);
    expect(() => filterOfFields({ 'topic) or (1': ['a'] })).toThrow(
      'A filter field must be an identifier such as version or meta.year.',
    );
  });
});

describe('resolveOnce', () => {
  it('resolves on the first call only, and again after a failure', async () => {
    let calls = 0;
    const resolve = resolveOnce(async () => {
      calls += 1;
      if (calls === 1) throw new Error('network down');
      return `id-${calls}`;
    });
    await expect(resolve()).rejects.toThrow('network down');
    expect(await Promise.all([resolve(), resolve()])).toEqual(['id-2', 'id-2']);
    expect(await resolve()).toBe('id-2');
    expect(calls).toBe(2);
  });
});
