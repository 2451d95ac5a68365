import type { QnaSystem } from '../data/model.js';
import { includeProbe } from '../http/query.js';
import { randomUUID } from '../neutral/crypto.js';
import { composeAnswer } from './compose-answer.js';
import { extractFilters, FilterError, formatFilter, parseFilter } from './filter.js';
import { countResults, objectWithList, resultItemJson } from './results.js';
import type { Hit, Retriever } from './retriever.js';

export interface QueryInput {
  question: string;
  filter?: string;
  properties: Map<string, string>;
  llmProviderId?: string;
}

interface Retrieved {
  hits: Hit[];
  inputFilters: string;
  extractedFilters: string;
  appliedFilters: string;
  limit: number;
}

/** `context=N` in `properties` sets how many results are retrieved (1 to 200). */
function limitOf(properties: Map<string, string>, fallback: number): number {
  const n = Number.parseInt(properties.get('context') ?? '', 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 200) : fallback;
}

function retrieve(
  system: QnaSystem,
  retriever: Retriever,
  input: QueryInput,
  fallbackLimit: number,
): Retrieved {
  const given = parseFilter(input.filter ?? '', system.fields);
  const extracted = extractFilters(input.question, system.documents, system.fields);
  // A caller's filter on a field wins over what the question implies about the same field.
  const fromQuestion = extracted.clauses.filter((c) => !given.clauses.some((g) => g.field === c.field));
  const applied = { clauses: [...given.clauses, ...fromQuestion] };
  const limit = limitOf(input.properties, fallbackLimit);
  return {
    hits: retriever.search(input.question, applied, limit),
    inputFilters: formatFilter(given),
    extractedFilters: formatFilter(extracted),
    appliedFilters: formatFilter(applied),
    limit,
  };
}

function probe(steps: { id: string; type: string; detail: unknown }[], started: number) {
  return { id: 'pipeline', status: 'COMPLETED', durationMs: Date.now() - started, children: steps };
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
export function searchSystem(system: QnaSystem, retriever: Retriever, input: QueryInput): string {
  const started = Date.now();
  const questionUuid = randomUUID();
  let retrieved: Retrieved;
  try {
    retrieved = retrieve(system, retriever, input, 5);
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
  return objectWithList(
    { question: input.question, questionUuid },
    'searchResultsList',
    hits.map((h) => resultItemJson(system, h)),
    {
      ...countResults(hits),
      systemName: system.name,
      systemId: system.systemId,
      status: 'COMPLETED',
      queryPlan: `retrieve top ${retrieved.limit} by similarity${retrieved.appliedFilters ? ` where ${retrieved.appliedFilters}` : ''}`,
      appliedFilters: retrieved.appliedFilters,
      inputFilters: retrieved.inputFilters,
      extractedFilters: retrieved.extractedFilters,
      ...(includeProbe(input.properties)
        ? { probe: probe([{ id: 'retrieve', type: 'RETRIEVAL', detail: { results: hits.length } }], started) }
        : {}),
    },
  );
}

/** The answer response as JSON text. */
export function answerQuestion(system: QnaSystem, retriever: Retriever, input: QueryInput): string {
  const started = Date.now();
  const questionUuid = randomUUID();
  let retrieved: Retrieved;
  try {
    retrieved = retrieve(system, retriever, input, 3);
  } catch (error) {
    if (error instanceof FilterError)
      return JSON.stringify(failed(system, input, questionUuid, error.message, { type: 'qna' }));
    throw error;
  }
  const { hits } = retrieved;
  const answer =
    composeAnswer(input.question, hits) ?? `No answer to this question was found in ${system.name}.`;
  return objectWithList(
    { question: input.question, questionUuid, answer },
    'context',
    hits.map((h) => resultItemJson(system, h)),
    {
      type: 'qna',
      systemName: system.name,
      systemId: system.systemId,
      status: 'COMPLETED',
      queryPlan: {
        steps: [
          {
            id: 'retrieve',
            type: 'RETRIEVAL',
            query: input.question,
            extractedFilterStr: retrieved.extractedFilters,
            context: { results: hits.length },
          },
          { id: 'compose', type: 'EXTRACTIVE_ANSWER', config: { llmProviderId: input.llmProviderId ?? '' } },
        ],
        messages: [],
      },
      appliedFilters: retrieved.appliedFilters,
      inputFilters: retrieved.inputFilters,
      extractedFilters: retrieved.extractedFilters,
      ...(includeProbe(input.properties)
        ? {
            probe: probe(
              [
                { id: 'retrieve', type: 'RETRIEVAL', detail: { results: hits.length } },
                { id: 'compose', type: 'EXTRACTIVE_ANSWER', detail: { characters: answer.length } },
              ],
              started,
            ),
          }
        : {}),
    },
  );
}
