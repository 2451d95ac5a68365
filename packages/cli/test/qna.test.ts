import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dataworkz, documentIdOf } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMatchesSpec } from '../../emulator/test/support/spec.js';
import { cliEnv, freshConfigDir, runCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

const supportKb = seed.systems.supportKb.systemId;

describe('dataworkz qna', () => {
  let emu: Emulator;
  let env: Record<string, string>;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    env = cliEnv(emu);
    dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('lists the systems: tab-separated in a pipe, the service’s JSON with --json', async () => {
    const plain = await runInProcess(['qna', 'list'], env);
    expect(plain.code, plain.stderr).toBe(0);
    const systems = await dw.qna.list();
    expect(plain.stdout.trim().split('\n')).toEqual(
      Object.entries(systems).map(([id, name]) => `${id}\t${name}`),
    );
    // `systems`, its first name, still answers the same.
    expect((await runInProcess(['qna', 'systems'], env)).stdout).toBe(plain.stdout);
    const json = await runInProcess(['--json', 'qna', 'systems'], env);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expectMatchesSpec('listQnaSystems', body);
    expect(body).toEqual(systems);
  });

  it('shows a system, its LLMs and its filters, each --json matching the spec', async () => {
    for (const [args, operationId] of [
      [['qna', 'get', supportKb], 'getQnaSystem'],
      [['qna', 'llms', supportKb], 'listQnaLlmProviders'],
      [['qna', 'filters', supportKb], 'listQnaFilters'],
    ] as const) {
      const plain = await runInProcess([...args], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout.length).toBeGreaterThan(0);
      const json = await runInProcess(['--json', ...args], env);
      expectMatchesSpec(operationId, JSON.parse(json.stdout));
    }
    const filters = await runInProcess(['qna', 'filters', supportKb], env);
    expect(filters.stdout).toMatch(/^topic\t/m);
  });

  it('searches with --where built into a filter, showing each passage with its link', async () => {
    const result = await runInProcess(
      ['qna', 'search', supportKb, 'how long is it covered', '--where', 'topic=warranty', '-n', '2'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const direct = await dw.qna.search(supportKb, {
      query: 'how long is it covered',
      filter: "topic in ('warranty')",
    });
    const first = direct.searchResultsList[0];
    expect(result.stdout).toContain(`[1] ${first?.source}`);
    expect(result.stdout).toContain(first?.link);
    expect(result.stdout).not.toContain('[3]');
    const json = await runInProcess(
      ['--json', 'qna', 'search', supportKb, 'returns', '--filter', "topic in ('returns')"],
      env,
    );
    const body = JSON.parse(json.stdout);
    expectMatchesSpec('searchQnaSystem', body);
    for (const item of body.searchResultsList) expect(item.metadata.topic).toBe('returns');
  });

  it('answers with the system’s first LLM, the sources under the answer', async () => {
    const question = 'How long do I have to return an item?';
    const result = await runInProcess(['qna', 'answer', supportKb, question], env);
    expect(result.code, result.stderr).toBe(0);
    const [llm] = Object.keys(await dw.qna.llmProviders(supportKb));
    const direct = await dw.qna.answer(supportKb, { questionText: question, llmProviderId: llm as string });
    expect(result.stdout.startsWith(direct.answer.trim())).toBe(true);
    expect(result.stdout).toContain('Sources');
    for (const item of direct.context) expect(result.stdout).toContain(item.link);
    const json = await runInProcess(['--json', 'qna', 'answer', supportKb, question], env);
    expectMatchesSpec('answerQnaQuestion', JSON.parse(json.stdout));
  });

  it('downloads a document by id and by a result link, the same bytes the client reads', async () => {
    const { documentId, systemId } = seed.documents.refunds;
    const expected = Buffer.from(await (await dw.qna.document(systemId, { documentId })).arrayBuffer());
    const dir = freshConfigDir();
    const byId = await runInProcess(
      ['qna', 'document', systemId, documentId, '-o', join(dir, 'a.docx')],
      env,
    );
    expect(byId.code, byId.stderr).toBe(0);
    expect(readFileSync(join(dir, 'a.docx')).equals(expected)).toBe(true);
    expect(byId.stderr).toContain(`to ${join(dir, 'a.docx')}`);
    const link = `${emu.url}/api/qna/v1/systems/${systemId}/document?documentId=${encodeURIComponent(documentId)}`;
    const byLink = await runInProcess(['qna', 'document', systemId, link, '-o', join(dir, 'b.docx')], env);
    expect(byLink.code, byLink.stderr).toBe(0);
    expect(readFileSync(join(dir, 'b.docx')).equals(expected)).toBe(true);
  });

  it('goes from a search or an answer to its document: each result prints the id qna document takes', async () => {
    const search = await runInProcess(['qna', 'search', supportKb, 'refund', '-n', '3'], env);
    expect(search.code, search.stderr).toBe(0);
    const direct = await dw.qna.search(supportKb, { query: 'refund' });
    const shown = [...search.stdout.matchAll(/^ {4}document (\S+)$/gm)].map((match) => match[1]);
    expect(shown).toEqual(direct.searchResultsList.slice(0, 3).map((item) => documentIdOf(item)));
    // The hint of the command that fetches one is for a terminal: in a pipe, stderr stays empty.
    expect(search.stderr).toBe('');
    const answer = await runInProcess(['qna', 'answer', supportKb, 'When are refunds issued?'], env);
    expect(answer.code, answer.stderr).toBe(0);
    const cited = [...answer.stdout.matchAll(/^ {4}document (\S+)$/gm)].map((match) => match[1] as string);
    expect(cited.length).toBeGreaterThan(0);
    for (const documentId of [shown[0] as string, cited[0] as string]) {
      // To stdout, which the download ends: a process of its own.
      // To stdout, which the download ends: a process of its own.
      const fetched = await runCli(['qna', 'document', supportKb, documentId], env);
      expect(fetched.code, fetched.stderr).toBe(0);
      const expected = await (await dw.qna.document(supportKb, { documentId })).text();
      expect(fetched.stdout).toBe(expected);
    }
  });

  it('refuses a link to a source file, which names no document, saying what it takes; nothing is fetched', async () => {
    const { searchResultsList } = await dw.qna.search(supportKb, { query: 'refund' });
    const links = searchResultsList.map((item) => item.link);
    expect(links.some((link) => link.startsWith('s3a://'))).toBe(true);
    emu.clearRequests();
    for (const link of new Set(links)) {
      const result = await runInProcess(['qna', 'document', supportKb, link], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `Error: ${link} is a link to a source file, which names no document id.`,
      );
      expect(result.stderr).toContain('document <id>');
      expect(result.stderr).toContain('…/document?documentId=<id>');
    }
    expect(emu.requests.filter((r) => r.path.endsWith('/document'))).toEqual([]);
    // A document link without the origin works as the whole one does.
    const { documentId } = seed.documents.refunds;
    const path = `/api/qna/v1/systems/${supportKb}/document?documentId=${encodeURIComponent(documentId)}`;
    // To stdout, which the download ends: a process of its own.
    const byPath = await runCli(['qna', 'document', supportKb, path], env);
    expect(byPath.code, byPath.stderr).toBe(0);
  });
});
