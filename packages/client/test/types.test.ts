// The result types: known fields only (a misspelled one does not compile), the contract's fields
// required, real deployments' extras optional, and unknown fields still there at run time.
// `pnpm typecheck` checks the @ts-expect-error lines and the expectTypeOf assertions.
import Dataworkz, {
  type AgentCard,
  type AgentFailedResponse,
  type AgentListItem,
  type AgentResponse,
  type AgentResponseData,
  type AnsweredQuestion,
  type AnswerResponse,
  type FailedResult,
  type Filter,
  type operations,
  type QnaSystemDetails,
  type QueryPlan,
  type SearchResponse,
  type SearchResultItem,
  type WithUnknownFields,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

// Type-checked, never run: every line reads a misspelled field and must not compile.
function readMisspelled(
  agent: AgentListItem,
  answer: AnswerResponse,
  card: AgentCard,
  response: AgentResponse,
) {
  return [
    // @ts-expect-error the field is agentId
    agent.id,
    // @ts-expect-error the field is name
    agent.nmae,
    // @ts-expect-error the field is questionUuid
    answer.questionUUID,
    // @ts-expect-error the field is link
    answer.context[0]?.url,
    // @ts-expect-error the field is capabilities
    card.capability,
    // @ts-expect-error the field is answer
    response.data.answr,
  ];
}

describe('result types', () => {
  it('reject a misspelled field', () => {
    expectTypeOf(readMisspelled).toBeFunction();
    expectTypeOf<AgentListItem>().not.toHaveProperty('id');
    expectTypeOf<SearchResultItem>().not.toHaveProperty('url');
  });

  it('require the fields the contract lists for list items, envelopes and query results', () => {
    expectTypeOf<AgentListItem>().toEqualTypeOf<{
      agentId: string;
      name: string;
      description: string;
      createdByName: string;
      createdDate: string;
      scenariosCount: string;
    }>();
    // An id from the list goes straight to a call that takes a string, with no `!`.
    const takesAgentId = (agentId: string) => agentId;
    takesAgentId(({} as AgentListItem).agentId);

    expectTypeOf<AgentResponse['status']>().toEqualTypeOf<string>();
    expectTypeOf<AgentResponse['data']>().toEqualTypeOf<AgentResponseData>();
    expectTypeOf<AgentResponseData>()
      .pick<'answer' | 'questionUuid' | 'status' | 'scenario'>()
      .toEqualTypeOf<{
        answer: string;
        questionUuid: string;
        status: string;
        scenario: string;
      }>();
    expectTypeOf<AgentResponseData['queryPlan']>().toEqualTypeOf<QueryPlan>();

    for (const result of [{} as SearchResponse, {} as AnswerResponse]) {
      expectTypeOf(result.question).toEqualTypeOf<string>();
      expectTypeOf(result.questionUuid).toEqualTypeOf<string>();
      expectTypeOf(result.systemId).toEqualTypeOf<string>();
      expectTypeOf(result.systemName).toEqualTypeOf<string>();
      expectTypeOf(result.status).toEqualTypeOf<string>();
    }
    expectTypeOf<SearchResponse['searchResultsList']>().toEqualTypeOf<SearchResultItem[]>();
    expectTypeOf<SearchResponse['pdfCount']>().toEqualTypeOf<number>();
    expectTypeOf<AnswerResponse['answer']>().toEqualTypeOf<string>();
    expectTypeOf<AnswerResponse['context']>().toEqualTypeOf<SearchResultItem[]>();
    expectTypeOf<SearchResultItem>().pick<'source' | 'data' | 'link'>().toEqualTypeOf<{
      source: string;
      data: string;
      link: string;
    }>();
    expectTypeOf<Filter['name']>().toEqualTypeOf<string>();
  });

  it('keep optional what real answers leave out and what the contract calls optional', () => {
    // A real answer carried no filter fields, no failureReason, and contexts without `type`.
    expectTypeOf<AnswerResponse['appliedFilters']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AnswerResponse['failureReason']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SearchResultItem['type']>().toEqualTypeOf<string | undefined>();
    // include_probe=false leaves the probe out.
    expectTypeOf<AnswerResponse>().toHaveProperty('probe').toEqualTypeOf<unknown>();
    expectTypeOf<AgentResponseData['structuredResponse']>().toBeNullable();
    // "All optional" in the contract.
    expectTypeOf<AgentCard['name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<QnaSystemDetails['uuid']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Filter['values']>().toEqualTypeOf<unknown[] | undefined>();
  });

  it('declare what real deployments send beyond the contract as optional fields', () => {
    expectTypeOf<SearchResultItem['similarityScore']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<SearchResultItem['contents']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SearchResultItem['metadata']>().toEqualTypeOf<{ [key: string]: unknown } | undefined>();
    expectTypeOf<NonNullable<SearchResultItem['additionalInfo']>['hits']>().toEqualTypeOf<
      string[] | undefined
    >();
    expectTypeOf<QnaSystemDetails['params']>().toEqualTypeOf<
      string | { [key: string]: unknown } | undefined
    >();
    const plan = {} as QueryPlan;
    if (typeof plan !== 'string') {
      expectTypeOf(plan.steps?.[0]?.extractedFilterStr).toEqualTypeOf<string | null | undefined>();
    }
  });

  it('describe a failed query apart from a completed one', () => {
    expectTypeOf<FailedResult['status']>().toEqualTypeOf<'FAILED'>();
    expectTypeOf<FailedResult['failureReason']>().toEqualTypeOf<string | undefined>();
    // The raw client does not throw on FAILED: its bodies are either shape.
    type Body<Op extends keyof operations> = operations[Op] extends {
      responses: { 200: { content: { 'application/json': infer B } } };
    }
      ? B
      : never;
    expectTypeOf<Body<'searchQnaSystem'>>().toEqualTypeOf<SearchResponse | FailedResult>();
    expectTypeOf<Body<'answerQnaQuestion'>>().toEqualTypeOf<AnswerResponse | FailedResult>();
    expectTypeOf<Body<'respondToAgent'>>().toEqualTypeOf<AgentResponse | AgentFailedResponse>();
  });

  it('reach unknown fields through WithUnknownFields', () => {
    const hit = {} as WithUnknownFields<SearchResultItem>;
    expectTypeOf(hit.rank).toEqualTypeOf<unknown>();
    expectTypeOf(hit.link).toEqualTypeOf<string>();
    // The cast from a result is allowed as it is.
    const item = {} as SearchResultItem;
    expectTypeOf(item as WithUnknownFields<SearchResultItem>).toExtend<SearchResultItem>();
  });
});

describe('unknown fields at run time', () => {
  let server: TestServer;
  let emu: Emulator;
  beforeAll(async () => {
    server = await startServer();
    emu = await startEmulator({ port: 0, host: '127.0.0.1', apiKeys: ['types-test-key'] });
  });
  afterAll(async () => {
    await server.close();
    await emu.close();
  });

  it('pass through untouched and are read with a cast', async () => {
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const hit = {
      source: 's',
      data: 'd',
      link: '/doc',
      rank: 3,
      additionalInfo: { hits: ['<em>reset</em> it'], origin: 'index-2' },
    };
    server.reply(
      json(200, {
        question: 'q',
        questionUuid: 'u',
        systemName: 'Docs',
        systemId: 'sys-1',
        status: 'COMPLETED',
        queryPlan: 'retrieve',
        searchResultsList: [hit],
        linksCount: 1,
        pdfCount: 0,
        wordCount: 0,
        textCount: 1,
        elapsedMillis: 12,
      }),
    );
    const result = await dw.qna.search('sys-1', { query: 'q' });
    expect((result as WithUnknownFields<SearchResponse>).elapsedMillis).toBe(12);
    const [first] = result.searchResultsList;
    expect((first as WithUnknownFields<SearchResultItem>).rank).toBe(3);
    expect(first?.additionalInfo?.hits).toEqual(['<em>reset</em> it']);
    expect(first?.additionalInfo).toEqual(hit.additionalInfo);
  });

  it('keep what the emulator adds to search results, typed where the spec names it', async () => {
    const dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey });
    const { searchResultsList } = await dw.qna.search(seed.systems.productDocs.systemId, {
      query: 'reset password',
    });
    const [first] = searchResultsList;
    expect(typeof first?.similarityScore).toBe('number');
    expect(typeof first?.metadata).toBe('object');
    // documentId names the result's document for the document endpoint (its link is the source file).
    expectTypeOf(first?.documentId).toEqualTypeOf<string | undefined>();
    expect(typeof first?.documentId).toBe('string');
    expect(first?.contents).toBe(first?.data);
  });
});

describe('the question history types (beyond the contract)', () => {
  it('parse the answer and read the scores as numbers', () => {
    expectTypeOf<AnsweredQuestion['llm_response']>().toEqualTypeOf<AnswerResponse>();
    expectTypeOf<AnsweredQuestion['llm_model']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AnsweredQuestion['generation_groundedness']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AnsweredQuestion['retrival_context_recall']>().toEqualTypeOf<number | undefined>();
  });
});
