import { own } from '../data/own.js';
import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import { parseProperties } from '../http/query.js';
import type { Limits } from '../limits.js';
import type { ServiceState } from '../state.js';
import { type ChatTurn, readConversation } from './conversation.js';
import { answerQuestion, searchSystem } from './queries.js';
import type { QuestionHistory } from './question-history.js';
import { retrievalSettings } from './retrieval-settings.js';

type ConversationLimits = Pick<Limits, 'maxTextLength' | 'maxTurnsPerContext' | 'maxJsonDepth'>;

export function listQnaSystems(state: ServiceState, ex: Exchange): void {
  ex.reply.json(200, Object.fromEntries(state.dataset.systems.map((s) => [s.systemId, s.name])));
}

export async function getQnaSystem(state: ServiceState, ex: Exchange): Promise<void> {
  const { system, retriever } = state.system(ex.params.systemId ?? '');
  // The dimensions are the models': known once the passages are embedded.
  await retriever.indexed();
  ex.reply.json(200, {
    uuid: system.systemId,
    name: system.name,
    mode: 'qa',
    prompt: system.prompt,
    database: system.database,
    dimensions: retriever.dimensions,
    createdBy: system.createdBy,
    createdDate: system.createdDate,
    modifiedBy: system.modifiedBy,
    modifiedDate: system.modifiedDate,
    status: 'ACTIVE',
    // An object, as deployments send it: the vendor's clients cast it to a map.
    params: {
      ...retrievalSettings,
      // Without a model (`embed: false`), ranking is BM25 alone.
      SIMILARITY_METRIC: retriever.dimensions > 0 ? retrievalSettings.SIMILARITY_METRIC : 'BM25',
    },
  });
}

export function listQnaLlmProviders(state: ServiceState, ex: Exchange): void {
  ex.reply.json(200, state.system(ex.params.systemId ?? '').system.llms);
}

export async function searchQnaSystem(
  state: ServiceState,
  ex: Exchange,
  history: readonly ChatTurn[] = [],
): Promise<void> {
  const { system, retriever } = state.system(ex.params.systemId ?? '');
  const question = ex.query.required('query');
  const llmProviderId = ex.query.optional('llmProviderId');
  if (llmProviderId) state.checkSystemLlm(system, llmProviderId);
  const filter = ex.query.optional('filter');
  ex.reply.send(
    200,
    'application/json',
    await searchSystem(system, retriever, {
      question,
      properties: parseProperties(ex.query.optional('properties')),
      ...(filter !== undefined ? { filter } : {}),
      ...(llmProviderId ? { llmProviderId } : {}),
      history,
    }),
  );
}

/** Search posted within a conversation (beyond the contract): the body's history shapes the query. */
export function searchQnaSystemWithHistory(
  state: ServiceState,
  ex: Exchange,
  limits: ConversationLimits,
): Promise<void> {
  return searchQnaSystem(state, ex, readConversation(ex.body, limits));
}

/** Answers a question and records it in the question history when it completed. */
export async function answerQnaQuestion(
  state: ServiceState,
  ex: Exchange,
  questions: QuestionHistory,
  history: readonly ChatTurn[] = [],
): Promise<void> {
  const { system, retriever } = state.system(ex.params.systemId ?? '');
  const question = ex.query.required('questionText');
  const llmProviderId = ex.query.required('llmProviderId');
  state.checkSystemLlm(system, llmProviderId);
  const filter = ex.query.optional('filter');
  const { json, answered } = await answerQuestion(
    system,
    retriever,
    {
      question,
      llmProviderId,
      properties: parseProperties(ex.query.optional('properties')),
      ...(filter !== undefined ? { filter } : {}),
      history,
    },
    state.answerVariation,
  );
  if (answered) questions.record(system.systemId, answered, own(system.llms, llmProviderId) ?? llmProviderId);
  ex.reply.send(200, 'application/json', json);
}

/** An answer posted within a conversation (beyond the contract): follow-ups read the earlier turns. */
export function answerQnaQuestionWithHistory(
  state: ServiceState,
  ex: Exchange,
  questions: QuestionHistory,
  limits: ConversationLimits,
): Promise<void> {
  return answerQnaQuestion(state, ex, questions, readConversation(ex.body, limits));
}

/** Cardinality of every metadata field; the values themselves for fields with at most 20. */
export function listQnaFilters(state: ServiceState, ex: Exchange): void {
  const { system } = state.system(ex.params.systemId ?? '');
  const filters = system.fields.map((field) => {
    const values = [
      ...new Set(system.documents.map((d) => own(d.metadata, field.name)).filter((v) => v !== undefined)),
    ];
    values.sort((a, b) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
    );
    return {
      name: field.name,
      type: field.type,
      description: field.description,
      cardinality: values.length,
      ...(values.length <= 20 ? { values } : {}),
    };
  });
  ex.reply.json(200, { filters });
}

/** `detail`: `content` (default) the bytes, `text` the extracted text, `metadata` the metadata as JSON. */
export async function getQnaDocument(state: ServiceState, ex: Exchange): Promise<void> {
  const { system } = state.system(ex.params.systemId ?? '');
  const documentId = ex.query.required('documentId');
  const document = system.documents.find((d) => d.documentId === documentId);
  if (!document) {
    throw new HttpError(
      404,
      `No document with id ${documentId} in QnA system ${system.systemId}`,
      {},
      'DOCUMENT_NOT_FOUND',
    );
  }
  const detail = ex.query.optional('detail') ?? 'content';
  // The PDF and Word writers (and fflate) load with the first document asked for, not at start.
  const { contentTypes, documentBytes } = await import('../documents/render.js');
  if (detail === 'content') {
    ex.reply.send(200, contentTypes[document.format], documentBytes(document), {
      'content-disposition': `inline; filename="${document.documentId}.${document.format}"`,
    });
  } else if (detail === 'text') {
    ex.reply.send(
      200,
      'text/plain; charset=utf-8',
      `${document.title}\n\n${document.paragraphs.join('\n\n')}\n`,
    );
  } else if (detail === 'metadata') {
    ex.reply.json(200, {
      documentId: document.documentId,
      title: document.title,
      format: document.format,
      contentType: contentTypes[document.format],
      size: documentBytes(document).length,
      metadata: document.metadata,
      ...(document.url ? { url: document.url } : {}),
    });
  } else {
    throw new HttpError(
      400,
      `Unknown detail '${detail}': expected content, text or metadata`,
      {},
      'BAD_PARAMETER',
    );
  }
}
