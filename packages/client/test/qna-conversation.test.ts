import Dataworkz, {
  type AnswerResponse,
  documentIdOf,
  InvalidParameterError,
  MalformedResponseError,
  type ProbeNode,
  type SearchResultItem,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Against the real emulator, reading each shape the way the vendor's own QnA clients read it.

let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['conversation-key'] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, backoff: { initialDelayMs: 1, maxDelayMs: 4 } });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.clearRequests();
  emu.faults.clear();
});

const docs = seed.systems.productDocs.systemId;
const kb = seed.systems.supportKb.systemId;
const llmProviderId = seed.llms.accountDefault;

/** Depth-first search of the probe tree for the node holding `value`, as the evaluation harness does. */
function findNode(tree: unknown, value: string): ProbeNode | undefined {
  if (Array.isArray(tree)) {
    for (const item of tree) {
      const found = findNode(item, value);
      if (found) return found;
    }
  } else if (typeof tree === 'object' && tree !== null) {
    if (Object.values(tree).includes(value)) return tree as ProbeNode;
    for (const child of Object.values(tree)) {
      const found = findNode(child, value);
      if (found) return found;
    }
  }
  return undefined;
}

describe('shapes as deployments send them', () => {
  it('system params read as a map', async () => {
    const details = await dw.qna.get(docs);
    const params = typeof details.params === 'string' ? JSON.parse(details.params) : details.params;
    const settings = Object.fromEntries(Object.entries(params ?? {}));
    expect(settings.SIMILARITY_METRIC).toBe('COSINE');
    expect(Object.keys(settings)).toContain('SIMILARITY_THRESHOLD');
  });

  it('the probe holds the chunks given to the LLM in its MERGE_NEIGHBOURING_CONTEXT node', async () => {
    const answer = await dw.qna.answer(docs, {
      questionText: 'How long are backups kept in Nimbus 2.1?',
      llmProviderId,
      properties: { include_probe: true },
    });
    const merge = findNode(answer.probe, 'MERGE_NEIGHBOURING_CONTEXT');
    const input = (merge?.data?.Input ?? []) as { Content: string }[];
    expect(input.length).toBeGreaterThan(0);
    expect(input.map((i) => i.Content)).toEqual(answer.context.map((c) => c.data));
    expect(answer.answer.startsWith('\n\n')).toBe(true);

    const without = await dw.qna.answer(docs, {
      questionText: 'How long are backups kept in Nimbus 2.1?',
      llmProviderId,
      properties: { include_probe: false },
    });
    expect(without.probe).toBeUndefined();
  });

  it('documentIdOf finds the document of a result whose link is its source file', async () => {
    const { searchResultsList } = await dw.qna.search(docs, { query: 'reset password' });
    const [hit] = searchResultsList;
    if (!hit) throw new Error('no result');
    expect(hit.link).toMatch(/^(s3a|https):\/\//);
    expect(hit.contents).toBe(hit.data);
    expect(hit.additionalInfo?.hits?.[0]).toMatch(/<em>password<\/em>/i);
    expect(documentIdOf(hit)).toBe(hit.documentId);
    const document = await dw.qna.document(docs, hit, { maxResponseBytes: 1e6 });
    expect(document.status).toBe(200);
    await document.arrayBuffer();
    // The older shape, a link to the document endpoint, still names it.
    const older: SearchResultItem = {
      source: hit.source,
      data: hit.data,
      link: `/api/qna/v1/systems/${docs}/document?documentId=${hit.documentId}`,
    };
    expect(documentIdOf(older)).toBe(hit.documentId);
  });
});

describe('chat over the corpus', () => {
  it('posts a question with its conversation and answers the follow-up from it', async () => {
    const first = await dw.qna.answer(docs, {
      questionText: 'When does the reset link expire in Nimbus 1.2?',
      llmProviderId,
    });
    expect(emu.requests.at(-1)?.method).toBe('GET');
    const conversationHistory = [
      { by: 'USER' as const, text: 'When does the reset link expire in Nimbus 1.2?' },
      { by: 'AI' as const, text: first.answer },
    ];
    const followUp = await dw.qna.answer(docs, {
      questionText: 'and in version 2.0?',
      llmProviderId,
      conversationHistory,
    });
    const sent = emu.requests.at(-1);
    expect(sent?.method).toBe('POST');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ conversationHistory });
    expect(followUp.answer).toMatch(/Nimbus 2\.0 the reset link expires after 1 hour/);
  });

  it('posts a search with its conversation', async () => {
    const result = await dw.qna.search(kb, {
      query: 'how long does that take?',
      conversationHistory: [{ by: 'USER', text: 'How do I get a refund?' }],
    });
    expect(emu.requests.at(-1)?.method).toBe('POST');
    expect(result.searchResultsList[0]?.data).toMatch(/refund/i);
  });

  it('refuses a malformed conversation before sending anything', async () => {
    const bad = [{ by: 'SYSTEM', text: 'x' }] as unknown as { by: 'USER'; text: string }[];
    const error = await dw.qna
      .answer(docs, { questionText: 'x', llmProviderId, conversationHistory: bad })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe('conversationHistory');
    expect(emu.requests).toHaveLength(0);
  });
});

describe('question history', () => {
  it('lists the questions by month and reads one back with its answer and scores', async () => {
    const answer = await dw.qna.answer(kb, {
      questionText: 'How long does delivery take in the UK?',
      llmProviderId,
    });
    const history = await dw.qna.history(kb);
    const month = Object.keys(history).find((m) => answer.questionUuid in (history[m] ?? {}));
    expect(month).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    expect(history[month ?? '']?.[answer.questionUuid]).toBe('How long does delivery take in the UK?');

    const question = await dw.qna.question(kb, answer.questionUuid);
    const parsed: AnswerResponse = question.llm_response;
    expect(parsed).toEqual(answer);
    expect(question.llm_model).toBe((await dw.qna.llmProviders(kb))[llmProviderId]);
    expect(question.generation_groundedness).toBe(1);
    expect(question.retrival_context_recall).toBeGreaterThan(0);
    expect(typeof question.generation_confidence_score).toBe('number');
  });

  it('reads scores sent as numeric text as numbers', async () => {
    emu.faults.add({
      route: 'getQnaQuestion',
      status: 200,
      body: JSON.stringify({ llm_response: '{"answer":"x"}', llm_model: 'm', retrival_relevance: '0.25' }),
    });
    const question = await dw.qna.question(kb, 'q-1');
    expect(question.retrival_relevance).toBe(0.25);
    expect(question.llm_response.answer).toBe('x');
  });

  it('rejects an llm_response that is not the answer JSON with a typed error', async () => {
    emu.faults.add({
      route: 'getQnaQuestion',
      status: 200,
      body: JSON.stringify({ llm_response: 'The answer is 42', llm_model: 'm' }),
    });
    const error = await dw.qna.question(kb, 'q-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).message).toMatch(/llm_response/);
  });

  it('answers NotFound for an unknown question', async () => {
    await expect(dw.qna.question(kb, 'no-such-question')).rejects.toMatchObject({ status: 404 });
  });
});
