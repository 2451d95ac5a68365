import type { QnaSystem } from '../data/model.js';
import { EmbeddingError } from '../embedding/model.js';
import { HttpError } from '../http/errors.js';
import { includeProbe } from '../http/query.js';
import { randomUUID } from '../neutral/crypto.js';
import type { Varied } from './answer-variation.js';
import { commonTerms, composeAnswer } from './compose-answer.js';
import type { ChatTurn } from './conversation.js';
import { extractFilters, FilterError, type FilterExpression, formatFilter, parseFilter } from './filter.js';
import { retrievalQuery } from './follow-up.js';
import { queryTerms } from './highlight.js';
import type { Hit } from './hit.js';
import { type ProbeStep, probeTree, timed } from './probe.js';
import { countResults, objectWithList, resultItemJson } from './results.js';
import { retrievalSettings } from './retrieval-settings.js';
import type { SystemRetriever } from './retriever-on-demand.js';

export interface QueryInput {
  question: string;
  filter?: string;
  properties: Map<string, string>;
  llmProviderId?: string;
  /** The conversation so far, when the query was posted within one. */
  history?: readonly ChatTurn[];
}

interface Retrieved {
  hits: Hit[];
  /** The text retrieval ran on: the question, or the question after the turns it continues. */
  query: string;
  extractedFilters: string;
  appliedFilters: string;
  limit: number;
  step: ProbeStep;
}

/** `context=N` in `properties` sets how many results are retrieved (1 to 200). */
function limitOf(properties: Map<string, string>, fallback: number): number {
  const n = Number.parseInt(properties.get('context') ?? '', 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 200) : fallback;
}

async function retrieve(
  system: QnaSystem,
  retriever: SystemRetriever,
  input: QueryInput,
  fallbackLimit: number,
): Promise<Retrieved> {
  const query = retrievalQuery(input.question, input.history ?? []);
  const given = parseFilter(input.filter ?? '', system.fields);
  const extracted = extractFilters(query, system.documents, system.fields);
  // A caller's filter on a field wins over what the question implies about the same field.
  const fromQuestion = extracted.clauses.filter((c) => !given.clauses.some((g) => g.field === c.field));
  const applied = { clauses: [...given.clauses, ...fromQuestion] };
  const appliedFilters = formatFilter(applied);
  const limit = limitOf(input.properties, fallbackLimit);
  const { value: hits, step } = await timed(
    'RETRIEVE',
    () => searchOrExplain(retriever, query, applied, limit),
    (found) => ({ Query: query, Filter: appliedFilters || null, Limit: limit, Results: found.length }),
  );
  return { hits, query, extractedFilters: formatFilter(extracted), appliedFilters, limit, step };
}

/** A custom embedding model's bad output is the operator's to fix: say what was wrong. */
async function searchOrExplain(
  retriever: SystemRetriever,
  question: string,
  filter: FilterExpression,
  limit: number,
): Promise<Hit[]> {
  try {
    return await retriever.search(question, filter, limit);
  } catch (error) {
    if (error instanceof EmbeddingError) throw new HttpError(500, error.message, {}, 'EMBEDDING_FAILED');
    throw error;
  }
}

/** The filter fields of a response, each only when it says something, as deployments send them. */
function filterFields(input: QueryInput, retrieved: Retrieved) {
  return {
    ...(retrieved.appliedFilters ? { appliedFilters: retrieved.appliedFilters } : {}),
    ...(input.filter ? { inputFilters: input.filter } : {}),
    ...(retrieved.extractedFilters ? { extractedFilters: retrieved.extractedFilters } : {}),
  };
}

function failed(system: QnaSystem, input: QueryInput, questionUuid: string, reason: string, extra: object) {
  return {
    question: input.question,
    questionUuid,
    systemName: system.name,
    systemId: system.systemId,
    status: 'FAILED',
    failureReason: reason,
    ...extra,
  };
}

/** The search response as JSON text. */
export async function searchSystem(
  system: QnaSystem,
  retriever: SystemRetriever,
  input: QueryInput,
): Promise<string> {
  const started = Date.now();
  const questionUuid = randomUUID();
  let retrieved: Retrieved;
  try {
    retrieved = await retrieve(system, retriever, input, retrievalSettings.SEARCH_TOP_K);
  } catch (error) {
    if (error instanceof FilterError) {
      return JSON.stringify(
        failed(system, input, questionUuid, error.message, {
          searchResultsList: [],
          ...countResults([]),
        }),
      );
    }
    throw error;
  }
  const { hits } = retrieved;
  const terms = queryTerms(retrieved.query);
  return objectWithList(
    { question: input.question, questionUuid },
    'searchResultsList',
    hits.map((h) => resultItemJson(system, h, terms)),
    {
      ...countResults(hits),
      systemName: system.name,
      systemId: system.systemId,
      status: 'COMPLETED',
      queryPlan: `retrieve top ${retrieved.limit} by similarity${retrieved.appliedFilters ? ` where ${retrieved.appliedFilters}` : ''}`,
      ...filterFields(input, retrieved),
      ...(includeProbe(input.properties)
        ? { probe: probeTree('QNA_SEARCH', started, [retrieved.step]) }
        : {}),
    },
  );
}

/** What an answered question leaves behind, for the question history. */
export interface AnsweredQuestion {
  questionUuid: string;
  question: string;
  /** The text retrieval ran on. */
  query: string;
  answer: string;
  /** The text of each context, in the order the answer cites them. */
  contexts: string[];
  /** Each context's similarity score as retrieval gave it. */
  scores: number[];
  /** The answer response as it was sent. */
  json: string;
}

/** The answer response as JSON text, and, when it completed, what the question history keeps. */
export async function answerQuestion(
  system: QnaSystem,
  retriever: SystemRetriever,
  input: QueryInput,
  vary?: Varied,
): Promise<{ json: string; answered?: AnsweredQuestion }> {
  const started = Date.now();
  const questionUuid = randomUUID();
  let retrieved: Retrieved;
  try {
    retrieved = await retrieve(system, retriever, input, retrievalSettings.ANSWER_TOP_K);
  } catch (error) {
    if (error instanceof FilterError)
      return { json: JSON.stringify(failed(system, input, questionUuid, error.message, { type: 'qna' })) };
    throw error;
  }
  const { hits, query } = retrieved;
  // Each context is one passage: the emulator indexes whole paragraphs, so there is nothing to merge.
  const merge = await timed(
    'MERGE_NEIGHBOURING_CONTEXT',
    () => hits.map((h) => h.passage.text),
    (chunks) => ({
      Input: chunks.map((Content, i) => ({
        Content,
        DocumentId: hits[i]?.passage.document.documentId,
        SimilarityScore: hits[i]?.score,
      })),
      Output: chunks.length,
    }),
  );
  const generate = await timed(
    'LLM_GENERATE',
    // Deployments' answers begin with a blank line, as the model writes it.
    // Below the ranking's floor the best passage is not about the question: cite nothing rather than it.
    // Nor when the question shares only terms most of the system's paragraphs hold (the product's name).
    // The question's words are matched as the models read them, misspellings corrected.
    () =>
      `\n\n${((hits[0]?.score ?? 0) >= retriever.answerFloor && composeAnswer(retriever.corrected(query), hits, 2, commonTerms(system), vary)) || `No answer to this question was found in ${system.name}.`}`,
    (text) => ({ LlmProviderId: input.llmProviderId ?? null, Characters: text.length }),
  );
  const answer = generate.value;
  const json = objectWithList(
    { question: input.question, answer },
    'context',
    hits.map((h) => resultItemJson(system, h)),
    {
      systemId: system.systemId,
      systemName: system.name,
      queryPlan: {
        steps: [
          {
            id: '0',
            type: 'qna',
            config: {},
            query,
            extractedFilterStr: retrieved.extractedFilters || null,
            context: [],
          },
        ],
        messages: [],
      },
      type: 'qna',
      questionUuid,
      status: 'COMPLETED',
      ...filterFields(input, retrieved),
      ...(includeProbe(input.properties)
        ? { probe: probeTree('QNA_ANSWER', started, [retrieved.step, merge.step, generate.step]) }
        : {}),
    },
  );
  return {
    json,
    answered: {
      questionUuid,
      question: input.question,
      query,
      answer,
      contexts: merge.value,
      scores: hits.map((h) => h.score),
      json,
    },
  };
}
