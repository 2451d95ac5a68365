import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';

// Each shape is read here the way the vendor's own clients read it (Java CLI, Python evaluation
// harness, Angular and React QnA components).

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['vendor-key'] });
});
afterAll(() => emu.close());

const docs = seed.systems.productDocs.systemId;
const kb = seed.systems.supportKb.systemId;
const llm = seed.llms.accountDefault;
type Item = Record<string, unknown> & { data: string; link: string; documentId: string };

const answerPath = (systemId: string, params: Record<string, string>) =>
  `/api/qna/v1/systems/${systemId}/answer?${q({ llmProviderId: llm, ...params })}`;
const answer = async (systemId: string, params: Record<string, string>) =>
  obj((await call(emu, answerPath(systemId, params))).json);
const post = (path: string, body: unknown) =>
  call(emu, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Every node of a JSON tree, depth first, as the evaluation harness walks the probe. */
function* nodes(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) yield* nodes(v);
  else if (typeof value === 'object' && value !== null) {
    yield value as Record<string, unknown>;
    for (const v of Object.values(value)) yield* nodes(v);
  }
}

describe('system details', () => {
  it('sends params as a map of retrieval settings', async () => {
    const details = obj((await call(emu, `/api/qna/v1/systems/${docs}`)).json);
    const params = new Map(Object.entries(obj(details.params)));
    expect(params.get('SIMILARITY_METRIC')).toBe('COSINE');
    expect(params.has('SIMILARITY_THRESHOLD')).toBe(true);
  });
});

describe('answer', () => {
  it('carries exactly the fields of a real answer, its text starting with a blank line', async () => {
    const body = await answer(docs, { questionText: 'How do I reset my password?' });
    expect(Object.keys(body)).toEqual([
      'question',
      'answer',
      'context',
      'systemId',
      'systemName',
      'queryPlan',
      'type',
      'questionUuid',
      'status',
      'probe',
    ]);
    expect(String(body.answer).startsWith('\n\nTo reset your password')).toBe(true);
    expect(obj(body.queryPlan).steps).toEqual([
      {
        id: '0',
        type: 'qna',
        config: {},
        query: 'How do I reset my password?',
        extractedFilterStr: null,
        context: [],
      },
    ]);
  });

  it('puts the chunks given to the LLM in the MERGE_NEIGHBOURING_CONTEXT node of the probe', async () => {
    const body = await answer(docs, {
      questionText: 'How many requests per minute does the API allow?',
      properties: 'include_probe=true',
    });
    const merge = [...nodes(body.probe)].find((n) => Object.values(n).includes('MERGE_NEIGHBOURING_CONTEXT'));
    expect(merge).toBeDefined();
    const chunks = (obj(merge?.data).Input as { Content: string }[]).map((i) => i.Content);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.length > 0)).toBe(true);
    expect(chunks).toEqual((body.context as Item[]).map((c) => c.data));
    for (const node of nodes(body.probe)) {
      if (!('instanceId' in node)) continue;
      expect(node).toMatchObject({ status: 'COMPLETED', statusMessage: '' });
      expect(node.durationMillis).toBe(Number(node.endMillis) - Number(node.startMillis));
    }
    const without = await answer(docs, {
      questionText: 'How many requests per minute does the API allow?',
      properties: 'include_probe=false',
    });
    expect('probe' in without).toBe(false);
  });

  it("links each context to its source file, and names the document endpoint's id apart", async () => {
    const body = await answer(kb, { questionText: 'Within how many days can I return hardware?' });
    const [first] = body.context as Item[];
    expect(first?.link).toMatch(/^s3a:\/\/dataworkz-support-kb\/articles\/[^/?]+\.pdf$/);
    expect(first?.documentId).toBe(seed.documents.returnsPolicy.documentId);
    const document = await call(
      emu,
      `/api/qna/v1/systems/${kb}/document?${q({ documentId: first?.documentId ?? '' })}`,
    );
    expect(document.status).toBe(200);
  });
});

describe('search', () => {
  it('sends contents and <em> highlights, and the filter fields only when used', async () => {
    const body = obj(
      (await call(emu, `/api/qna/v1/systems/${docs}/search?${q({ query: 'reset password' })}`)).json,
    );
    for (const key of ['inputFilters', 'appliedFilters', 'extractedFilters', 'failureReason'])
      expect(key in body).toBe(false);
    const [first] = body.searchResultsList as Item[];
    expect(first?.contents).toBe(first?.data);
    const hits = obj(first?.additionalInfo).hits as string[];
    expect(hits).toHaveLength(1);
    expect(hits[0]).toContain('<em>password</em>');
    expect(hits[0]?.replace(/<\/?em>/g, '')).toBe(first?.data);
  });

  it("echoes the caller's filter verbatim", async () => {
    const filter = "version in ('2.1')  and year=2026";
    const body = obj(
      (await call(emu, `/api/qna/v1/systems/${docs}/search?${q({ query: 'backup', filter })}`)).json,
    );
    expect(body.inputFilters).toBe(filter);
    expect(body.appliedFilters).toBe("version = '2.1' and year = '2026'");
  });
});

describe('answer and search posted, with or without a conversation', () => {
  it('answers a POST with an empty body and no content type, as the Java client sends it', async () => {
    const res = await fetch(
      `${emu.url}${answerPath(docs, { questionText: 'How do I reset my password?' })}`,
      {
        method: 'POST',
        headers: { authorization: `SSWS ${emu.apiKey}` },
        signal: AbortSignal.timeout(10_000),
      },
    );
    expect(res.status).toBe(200);
    const body = obj(await res.json());
    expect(body.status).toBe('COMPLETED');
    expect(String(body.answer)).toMatch(/open Settings and choose Security/);
    const sent = emu.requests.at(-1);
    expect(sent?.method).toBe('POST');
    expect(sent?.headers['content-type']).toBeUndefined();
  });

  it('reads a JSON body sent without a content type', async () => {
    const history = {
      conversationHistory: [{ by: 'USER', text: 'When does the reset link expire in Nimbus 1.2?' }],
    };
    const res = await fetch(`${emu.url}${answerPath(docs, { questionText: 'and in version 2.0?' })}`, {
      method: 'POST',
      headers: { authorization: `SSWS ${emu.apiKey}` },
      body: new TextEncoder().encode(JSON.stringify(history)),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    expect(String(obj(await res.json()).answer)).toMatch(/Nimbus 2\.0 the reset link expires after 1 hour/);
  });

  it('answers a follow-up in the context of the earlier turns', async () => {
    const first = await answer(docs, { questionText: 'When does the reset link expire in Nimbus 1.2?' });
    expect(String(first.answer)).toMatch(/expires after 24 hours/);
    const conversationHistory = [
      { by: 'USER', text: 'When does the reset link expire in Nimbus 1.2?' },
      { by: 'AI', text: String(first.answer) },
    ];
    const followUp = obj(
      (await post(answerPath(docs, { questionText: 'and in version 2.0?' }), { conversationHistory })).json,
    );
    expect(followUp.question).toBe('and in version 2.0?');
    expect(String(followUp.answer)).toMatch(/In Nimbus 2\.0 the reset link expires after 1 hour/);
    expect(followUp.extractedFilters).toBe("version = '2.0'");
    const step = (obj(followUp.queryPlan).steps as { query: string }[])[0];
    expect(step?.query).toMatch(/reset link expire .*and in version 2\.0\?$/);
    expect(step?.query).not.toMatch(/1\.2/);

    // The same follow-up without the conversation is not about reset links.
    const alone = await answer(docs, { questionText: 'and in version 2.0?' });
    expect(String(alone.answer)).not.toMatch(/reset link/);
  });

  it('resolves "that" in a follow-up from the earlier user turn', async () => {
    const conversationHistory = [
      { by: 'USER', text: 'How do I get a refund?' },
      { by: 'AI', text: 'Refunds go to the original payment method.' },
    ];
    const followUp = obj(
      (await post(answerPath(kb, { questionText: 'how long does that take?' }), { conversationHistory }))
        .json,
    );
    expect(String(followUp.answer)).toMatch(/refunds can take a further 3 to 7 days/i);
    const searched = obj(
      (
        await post(`/api/qna/v1/systems/${kb}/search?${q({ query: 'how long does that take?' })}`, {
          conversationHistory,
          queryPlan: { steps: [] },
        })
      ).json,
    );
    expect((searched.searchResultsList as Item[])[0]?.data).toMatch(/refund/i);
  });

  it('leaves a question that stands alone as it is', async () => {
    const conversationHistory = [{ by: 'USER', text: 'How do I get a refund?' }];
    const body = obj(
      (
        await post(answerPath(kb, { questionText: 'What are the support hours on weekends?' }), {
          conversationHistory,
        })
      ).json,
    );
    expect((obj(body.queryPlan).steps as { query: string }[])[0]?.query).toBe(
      'What are the support hours on weekends?',
    );
  });

  it.each([
    ['not JSON', '{"conversationHistory": ['],
    ['an array', '[]'],
    ['a history that is not an array', '{"conversationHistory": "USER: hi"}'],
    ['a turn without text', '{"conversationHistory": [{"by": "USER"}]}'],
    ['a turn by someone else', '{"conversationHistory": [{"by": "SYSTEM", "text": "x"}]}'],
    ['a query plan that is a number', '{"queryPlan": 3}'],
  ])('refuses %s with a clear 400', async (_what, body) => {
    for (const path of [
      answerPath(docs, { questionText: 'and in 2.0?' }),
      `/api/qna/v1/systems/${docs}/search?${q({ query: 'x' })}`,
    ]) {
      const res = await call(emu, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expect(obj(res.json)).toMatchObject({ status: 400, code: 'BAD_REQUEST_BODY' });
      expect(String(obj(res.json).message)).toMatch(/body|conversationHistory|queryPlan/);
    }
  });
});

describe('question history', () => {
  it('lists answered questions by month, newest first, and serves each with its scores', async () => {
    const first = await answer(kb, { questionText: 'How long does delivery take in the EU?' });
    const second = await answer(kb, { questionText: 'zebra giraffe quantum' });
    const history = obj((await call(emu, `/api/qna/v1/systems/${kb}/questionshistory`)).json);
    const [month] = Object.keys(history);
    expect(month).toMatch(
      /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/,
    );
    const questions = obj(history[month ?? '']);
    expect(Object.keys(questions).slice(0, 2)).toEqual([second.questionUuid, first.questionUuid]);
    expect(questions[String(first.questionUuid)]).toBe('How long does delivery take in the EU?');
    // Questions of other systems are not listed.
    expect(
      Object.values(obj((await call(emu, `/api/qna/v1/systems/${docs}/questionshistory`)).json)).flatMap(
        (m) => Object.keys(obj(m)),
      ),
    ).not.toContain(first.questionUuid);

    const record = obj((await call(emu, `/api/qna/v1/systems/${kb}/questions/${first.questionUuid}`)).json);
    expect(JSON.parse(String(record.llm_response))).toEqual(first);
    expect(record.llm_model).toBe(
      obj((await call(emu, `/api/qna/v1/systems/${kb}/llm-providers`)).json)[llm],
    );
    const scores = [
      'retrival_relevance',
      'retrival_context_recall',
      'generation_relevance',
      'generation_groundedness',
      'generation_correctness',
      'generation_confidence_score',
    ];
    for (const name of scores) {
      expect(record[name]).toBeGreaterThanOrEqual(0);
      expect(record[name]).toBeLessThanOrEqual(1);
    }
    expect(record.generation_groundedness).toBe(1);
    expect(record.retrival_context_recall).toBeGreaterThan(0.5);

    // Nothing retrieved, nothing grounded: the scores say so.
    const unanswered = obj(
      (await call(emu, `/api/qna/v1/systems/${kb}/questions/${second.questionUuid}`)).json,
    );
    expect(unanswered).toMatchObject({
      retrival_relevance: 0,
      retrival_context_recall: 0,
      generation_groundedness: 0,
      generation_correctness: 0,
      generation_confidence_score: 0,
    });
  });

  it('answers 404 for an unknown question or one of another system', async () => {
    const asked = await answer(kb, { questionText: 'What are the support hours?' });
    for (const path of [
      `/api/qna/v1/systems/${kb}/questions/nope`,
      `/api/qna/v1/systems/${docs}/questions/${asked.questionUuid}`,
    ]) {
      const res = await call(emu, path);
      expect(res.status).toBe(404);
      expect(obj(res.json).code).toBe('QUESTION_NOT_FOUND');
    }
  });

  it('keeps at most maxQuestions, dropping the oldest', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxQuestions: 2 } });
    try {
      const ids: unknown[] = [];
      for (const questionText of [
        'How do I get a refund?',
        'What are the support hours?',
        'Can I cancel an order?',
      ]) {
        const res = await call(small, answerPath(kb, { questionText }));
        ids.push(obj(res.json).questionUuid);
      }
      const history = obj((await call(small, `/api/qna/v1/systems/${kb}/questionshistory`)).json);
      expect(Object.values(history).flatMap((m) => Object.keys(obj(m)))).toEqual([ids[2], ids[1]]);
      expect((await call(small, `/api/qna/v1/systems/${kb}/questions/${ids[0]}`)).status).toBe(404);
    } finally {
      await small.close();
    }
  });
});
