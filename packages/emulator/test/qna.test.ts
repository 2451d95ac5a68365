import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['qna-key'] });
});
afterAll(() => emu.close());

const docs = seed.systems.productDocs.systemId;
const kb = seed.systems.supportKb.systemId;
const llm = seed.llms.accountDefault;
type Item = {
  source: string;
  type: string;
  data: string;
  link: string;
  documentId: string;
  title: string;
  metadata: Record<string, unknown>;
};

const search = async (systemId: string, params: Record<string, string>) =>
  obj((await call(emu, `/api/qna/v1/systems/${systemId}/search?${q(params)}`)).json);
const answer = async (systemId: string, params: Record<string, string>) =>
  obj(
    (await call(emu, `/api/qna/v1/systems/${systemId}/answer?${q({ llmProviderId: llm, ...params })}`)).json,
  );

describe('search', () => {
  it('ranks the matching passage first, links it to its source file and names its document', async () => {
    const body = await search(docs, { query: 'configure single sign-on identity provider' });
    const items = body.searchResultsList as Item[];
    expect(items.length).toBe(5);
    expect(items[0]?.data).toMatch(/single sign-on/);
    const link = items[0]?.link ?? '';
    expect(link).toMatch(
      /^(s3a:\/\/[^/]+\/manuals\/[^/]+\.(pdf|docx|txt|md)|https:\/\/docs\.nimbus\.example\/.+)$/,
    );
    const doc = await call(
      emu,
      `/api/qna/v1/systems/${docs}/document?${q({ documentId: items[0]?.documentId ?? '' })}`,
    );
    expect(doc.status).toBe(200);
  });

  it('counts results by type and every result has a link', async () => {
    const body = await search(docs, { query: 'Nimbus', properties: 'context=50' });
    const items = body.searchResultsList as Item[];
    const count = (t: string) => items.filter((i) => i.type === t).length;
    expect(body).toMatchObject({
      linksCount: items.length,
      pdfCount: count('pdf'),
      wordCount: count('word'),
      textCount: count('text'),
    });
    for (const type of ['pdf', 'word', 'text', 'link']) expect(count(type)).toBeGreaterThan(0);
  });

  it('applies `in`, `=` and `and` filters and reports them', async () => {
    const body = await search(docs, {
      query: 'rate limit requests per minute',
      filter: "version in ('2.0', '2.1') and year = 2026",
    });
    const items = body.searchResultsList as Item[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.metadata.version === '2.1' && i.metadata.year === 2026)).toBe(true);
    expect(body).toMatchObject({
      inputFilters: "version in ('2.0', '2.1') and year = 2026",
      appliedFilters: "version in ('2.0', '2.1') and year = '2026'",
    });
    expect('extractedFilters' in body).toBe(false);
  });

  it('extracts a version named in the question as a filter', async () => {
    const body = await search(docs, { query: 'API rate limit in Nimbus 1.2' });
    expect(body.extractedFilters).toBe("version = '1.2'");
    expect(body.appliedFilters).toBe("version = '1.2'");
    expect((body.searchResultsList as Item[])[0]?.data).toBe(
      'The Nimbus 1.2 REST API allows 600 requests per minute for each API key.',
    );
  });

  it('handles quotes inside filter values', async () => {
    const body = await search(kb, { query: 'returns', filter: "topic = 'it''s'" });
    expect(body).toMatchObject({
      status: 'COMPLETED',
      inputFilters: "topic = 'it''s'",
      searchResultsList: [],
    });
  });

  it.each([
    ["version in ('2.0'", "Malformed filter: expected ',' or ')'"],
    ['version = ', 'Malformed filter: expected a quoted value or a number'],
    ["version = '2.0' or year = 2024", "Malformed filter: expected 'and' between clauses"],
    ["version = 'unterminated", 'Malformed filter: unterminated string literal'],
    ["colour in ('red')", 'Unknown filter field: colour'],
  ])('reports the filter %j as a FAILED query', async (filter, reason) => {
    const body = await search(docs, { query: 'install', filter });
    expect(body).toMatchObject({ status: 'FAILED', failureReason: reason, searchResultsList: [] });
  });

  it('gives each request a fresh questionUuid and honours include_probe', async () => {
    const a = await search(docs, { query: 'backup' });
    const b = await search(docs, { query: 'backup', properties: 'include_probe=false' });
    expect(a.questionUuid).not.toBe(b.questionUuid);
    expect(a.probe).toBeDefined();
    expect('probe' in b).toBe(false);
  });

  it('refuses an LLM not configured for the system', async () => {
    const res = await call(
      emu,
      `/api/qna/v1/systems/${docs}/search?${q({ query: 'x', llmProviderId: seed.llms.supportKbSystem })}`,
    );
    expect(res.status).toBe(400);
    expect(obj(res.json).code).toBe('LLM_NOT_CONFIGURED');
  });

  it('finds a misspelled term by its nearest indexed spelling', async () => {
    const exact = (await search(docs, { query: 'password' })).searchResultsList as Item[];
    const misspelled = (await search(docs, { query: 'pasword' })).searchResultsList as Item[];
    expect(misspelled.length).toBe(5);
    // The passages the corrected spelling finds lead, the same as for the exact term.
    expect(exact.every((i) => /password/i.test(i.title))).toBe(true);
    expect(misspelled.map((i) => i.data)).toEqual(exact.map((i) => i.data));
  });
});

describe('answer', () => {
  it('composes a deterministic extractive answer citing its contexts', async () => {
    const params = { questionText: 'How long is the password reset link valid in version 2.1?' };
    const first = await answer(docs, params);
    const second = await answer(docs, params);
    expect(first.answer).toBe(
      '\n\nTo reset your password, open Settings and choose Security, then select Reset password [1]. In Nimbus 2.1 the reset link expires after 30 minutes; request a new link if it has expired [3].',
    );
    expect(second.answer).toBe(first.answer);
    expect(first.type).toBe('qna');
    expect((first.context as Item[]).length).toBe(3);
    expect(first.extractedFilters).toBe("version = '2.1'");
  });

  it('describes each step of the answer in its probe', async () => {
    const body = await answer(docs, { questionText: 'How do I reset my password?' });
    const steps = (body.probe as { children: { ref: string; data: Record<string, unknown> }[] }).children;
    expect(steps.map((s) => s.ref)).toEqual(['RETRIEVE', 'MERGE_NEIGHBOURING_CONTEXT', 'LLM_GENERATE']);
    expect(steps[0]?.data).toMatchObject({ Query: 'How do I reset my password?', Limit: 3, Results: 3 });
    expect(steps[1]?.data.Output).toBe(3);
    expect(steps[2]?.data.Characters).toBe((body.answer as string).length);
  });

  it('answers a misspelt question from what its corrected words find, not with "no answer"', async () => {
    const body = await answer(docs, { questionText: 'how do I rset my pasword' });
    expect(body.answer).toMatch(/password/i);
    expect(body.answer).toMatch(/\[\d\]/);
    expect(body.answer).not.toMatch(/No answer/);
  });

  it('says a sentence several contexts share once, citing each of them', async () => {
    // The three releases' paragraphs differ in their first sentence and share the second.
    const body = await answer(docs, { questionText: 'How do I add a widget to a dashboard?' });
    const sentences = (body.answer as string).split(/(?<=\.)\s+/);
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(body.answer).toMatch(/pick a data source and a chart type \[1\]\[2\]\[3\]\./);
    expect((body.context as Item[]).length).toBe(3);
  });

  it('answers from the support knowledge base', async () => {
    const body = await answer(kb, { questionText: 'Within how many days can I return hardware?' });
    expect(body.answer).toMatch(/within 30 days of delivery/);
    expect((body.context as Item[])[0]?.documentId).toBe(seed.documents.returnsPolicy.documentId);
  });

  it('says so when nothing matches', async () => {
    const body = await answer(docs, { questionText: 'zebra giraffe', filter: "version = '9.9'" });
    expect(body).toMatchObject({ status: 'COMPLETED', context: [] });
    expect(body.answer).toBe('\n\nNo answer to this question was found in Product Documentation.');
  });

  it('requires questionText and llmProviderId, and a configured LLM', async () => {
    for (const params of [
      { llmProviderId: llm },
      { questionText: 'x' },
      { questionText: 'x', llmProviderId: 'nope' },
    ] as Record<string, string>[]) {
      const res = await call(emu, `/api/qna/v1/systems/${docs}/answer?${q(params)}`);
      expect(res.status).toBe(400);
    }
  });
});

describe('filters', () => {
  it('lists each field with its type, cardinality and values', async () => {
    const body = obj((await call(emu, `/api/qna/v1/systems/${kb}/filters`)).json);
    expect(body.filters).toEqual([
      {
        name: 'topic',
        type: 'string',
        description: 'What the article is about.',
        cardinality: 9,
        values: expect.any(Array),
      },
      {
        name: 'region',
        type: 'string',
        description: 'Region the article applies to (`all` for every region).',
        cardinality: 2,
        values: ['all', 'EU'],
      },
      {
        name: 'year',
        type: 'integer',
        description: 'Year the article was last reviewed.',
        cardinality: 3,
        values: [2024, 2025, 2026],
      },
      {
        name: 'audience',
        type: 'string',
        description: 'Who the article is written for.',
        cardinality: 2,
        values: ['customers', 'staff'],
      },
    ]);
  });
});

describe('documents', () => {
  const get = (d: { systemId: string; documentId: string }, detail?: string) =>
    fetch(
      `${emu.url}/api/qna/v1/systems/${d.systemId}/document?${q({ documentId: d.documentId, ...(detail ? { detail } : {}) })}`,
      { headers: { authorization: `SSWS ${emu.apiKey}` }, signal: AbortSignal.timeout(10_000) },
    );

  it('serves a real PDF', async () => {
    const res = await get(seed.documents.returnsPolicy);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
    expect(text).toContain(
      '(Customers may return hardware within 30 days of delivery for a full refund. Gold members)',
    );
  });

  it('serves a Word document as a zip holding word/document.xml', async () => {
    const res = await get(seed.documents.refunds);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/core.xml',
      'word/document.xml',
    ]);
    expect(strFromU8(files['word/document.xml'] ?? new Uint8Array())).toContain(
      'Refunds are issued to the original payment method',
    );
  });

  it('serves markdown, text and web pages with their content types', async () => {
    const md = await get(seed.documents.shippingTimes);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toMatch(/^# Shipping times\n/);
    const txt = await get(seed.documents.damagedDelivery);
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const html = await get(seed.documents.supportHours);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toContain('<h1>Contacting support</h1>');
  });

  it('serves the extracted text and the metadata by `detail`', async () => {
    const text = await get(seed.documents.returnsPolicy, 'text');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toMatch(/^Returns policy\n\nCustomers may return hardware/);
    const meta = await get(seed.documents.returnsPolicy, 'metadata');
    expect(await meta.json()).toMatchObject({
      documentId: seed.documents.returnsPolicy.documentId,
      title: 'Returns policy',
      format: 'pdf',
      contentType: 'application/pdf',
      metadata: { topic: 'returns', region: 'all', year: 2026, audience: 'customers' },
    });
    expect((await get(seed.documents.returnsPolicy, 'thumbnail')).status).toBe(400);
  });

  it('stores each named seed document in the format seed states', async () => {
    for (const document of Object.values(seed.documents)) {
      const meta = (await (await get(document, 'metadata')).json()) as { format: string };
      expect(meta.format).toBe(document.format);
    }
  });

  it('answers 404 for a document of another system and 400 without documentId', async () => {
    expect((await get({ systemId: docs, documentId: seed.documents.returnsPolicy.documentId })).status).toBe(
      404,
    );
    expect((await call(emu, `/api/qna/v1/systems/${docs}/document`)).status).toBe(400);
  });

  it('holds at least 40 documents, of every type, in the product documentation alone', async () => {
    // Every product document's title names Nimbus, so this query reaches all of them.
    const body = await search(docs, { query: 'Nimbus', properties: 'context=200' });
    const items = body.searchResultsList as Item[];
    expect(new Set(items.map((i) => i.documentId)).size).toBeGreaterThanOrEqual(40);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(['pdf', 'word', 'text', 'link']));
  });
});
