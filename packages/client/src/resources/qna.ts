import type { Attributes } from '@opentelemetry/api';
import type { APIPromise } from '../core/api-promise.js';
import { InvalidParameterError } from '../core/errors.js';
import {
  entriesOf,
  NoAnsweringLlmError,
  pickByIdOrName,
  type ResolveOptions,
  requireIdOrName,
  requireIdsOrNames,
} from '../core/names.js';
import { optionalString, requireId, requireString, withoutUndefined } from '../core/params.js';
import type { RequestOptions } from '../core/request-options.js';
import { type DocumentSource, documentIdOf } from '../document-id.js';
import { FilterExpression } from '../filter.js';
import { guardBody } from '../internal/body.js';
import { checkHistory } from '../internal/conversation.js';
import { readJson, readQueryResult } from '../internal/read.js';
import { readAnsweredQuestion } from '../internal/read-question.js';
import { type Properties, serializeProperties } from '../properties.js';
import type {
  AnsweredQuestion,
  AnswerResponse,
  ConversationMessage,
  FilterList,
  LlmProviderMap,
  QnaSystemDetails,
  QnaSystemMap,
  QuestionHistory,
  SearchResponse,
} from '../types.js';
import { APIResource } from './resource.js';

/** What `qna.search` sends. */
export interface SearchParams {
  /** The search terms. */
  query: string;
  /** An LLM configured in the pipeline; used only if needed. */
  llmProviderId?: string | undefined;
  /** A filter expression: built with `filter`, or raw text such as `version in ('2.0')`. */
  filter?: FilterExpression | string | undefined;
  /** Flags such as `{ include_probe: false }`. */
  properties?: Properties | undefined;
  /**
   * The conversation so far, oldest first (chat over the corpus; beyond the published contract):
   * given, the search is posted with it, and a follow-up is searched in its context.
   */
  conversationHistory?: ConversationMessage[] | undefined;
}

/** What `qna.answer` sends. */
export interface AnswerParams {
  /** The question. */
  questionText: string;
  /** An LLM configured for the system (see `qna.llmProviders()`). */
  llmProviderId: string;
  filter?: FilterExpression | string | undefined;
  properties?: Properties | undefined;
  /**
   * The conversation so far, oldest first (chat over the corpus; beyond the published contract):
   * given, the question is posted with it and answered in its context.
   */
  conversationHistory?: ConversationMessage[] | undefined;
}

/** What `qna.document` asks for. */
export interface DocumentParams {
  /** The id of a document in the dataset (`documentIdOf(result)` finds it for a search result). */
  documentId: string;
  /** The detail of the document data requested. */
  detail?: string | undefined;
}

const ACCEPT_ANY = { accept: '*/*' };

/** QnA systems (RAG applications): details, LLM configurations, search, answer, filters, documents. */
export class Qna extends APIResource {
  /** Every QnA system: id to name. */
  list(options?: RequestOptions): APIPromise<QnaSystemMap> {
    return this._call(
      'qna.list',
      options,
      () => ({ method: 'GET', path: '/api/qna/v1/systems' }),
      readJson<QnaSystemMap>,
    );
  }

  /**
   * The QnA system `idOrName` names: its id, or its exact name without regard to case, found with
   * one `list()`. Rejects with UnknownNameError (naming the close matches) or AmbiguousNameError.
   */
  async resolve(idOrName: string, options?: ResolveOptions): Promise<{ systemId: string; name: string }> {
    const [system] = await this.resolveAll([requireIdOrName('QnA system', idOrName)], options);
    return system as { systemId: string; name: string };
  }

  /**
   * The QnA systems a list of ids or names names, in its order, found with one `list()` (as
   * `resolve()` finds one). Rejects with UnknownNameError or AmbiguousNameError for the first entry
   * that names none or several.
   */
  async resolveAll(
    idsOrNames: readonly string[],
    options?: ResolveOptions,
  ): Promise<{ systemId: string; name: string }[]> {
    requireIdsOrNames('QnA system', idsOrNames);
    const { within, ...request } = options ?? {};
    const systems = entriesOf(await this.list(request));
    return idsOrNames.map((given) => {
      const { id, name } = pickByIdOrName('QnA system', given, systems, within);
      return { systemId: id, name };
    });
  }

  /**
   * The LLM configuration of a system that `idOrName` names: its id, or its model name as
   * `llmProviders()` lists it, without regard to case, found with one `llmProviders()`. Rejects with
   * UnknownNameError (listing the system's LLMs) or AmbiguousNameError.
   */
  async resolveLlm(
    systemId: string,
    idOrName: string,
    options?: RequestOptions,
  ): Promise<{ llmProviderId: string; name: string }> {
    requireIdOrName('LLM', idOrName);
    const llms = entriesOf(await this.llmProviders(systemId, options));
    const { id, name } = pickByIdOrName('LLM', idOrName, llms, undefined, `QnA system ${systemId}`);
    return { llmProviderId: id, name };
  }

  /**
   * The LLM configuration to answer with: the one `idOrName` names (as `resolveLlm()` finds it), else
   * the first the system lists, found with one `llmProviders()`. Rejects with NoAnsweringLlmError when
   * none is named and the system lists none.
   */
  async answeringLlm(
    systemId: string,
    idOrName?: string | undefined,
    options?: RequestOptions,
  ): Promise<{ llmProviderId: string; name: string }> {
    if (idOrName !== undefined) return this.resolveLlm(systemId, idOrName, options);
    const [first] = entriesOf(await this.llmProviders(systemId, options));
    if (first === undefined) throw new NoAnsweringLlmError(systemId);
    return { llmProviderId: first.id, name: first.name };
  }

  /** A system's details. */
  get(systemId: string, options?: RequestOptions): APIPromise<QnaSystemDetails> {
    return this._call(
      'qna.get',
      options,
      () => ({
        method: 'GET',
        path: '/api/qna/v1/systems/{systemId}',
        params: { path: systemPath(systemId) },
        trace: systemTrace(systemId),
      }),
      readJson<QnaSystemDetails>,
    );
  }

  /** The system's LLM configurations: id to model name. */
  llmProviders(systemId: string, options?: RequestOptions): APIPromise<LlmProviderMap> {
    return this._call(
      'qna.llmProviders',
      options,
      () => ({
        method: 'GET',
        path: '/api/qna/v1/systems/{systemId}/llm-providers',
        params: { path: systemPath(systemId) },
        trace: systemTrace(systemId),
      }),
      readJson<LlmProviderMap>,
    );
  }

  /** The metadata fields retrieval can be filtered on. */
  filters(systemId: string, options?: RequestOptions): APIPromise<FilterList> {
    return this._call(
      'qna.filters',
      options,
      () => ({
        method: 'GET',
        path: '/api/qna/v1/systems/{systemId}/filters',
        params: { path: systemPath(systemId) },
        trace: systemTrace(systemId),
      }),
      readJson<FilterList>,
    );
  }

  /** Semantic search. A body with `status: FAILED` rejects with QueryFailedError. */
  search(systemId: string, params: SearchParams, options?: RequestOptions): APIPromise<SearchResponse> {
    return this._call(
      'qna.search',
      options,
      () => {
        const path = systemPath(systemId);
        checkParams(params, 'search() needs { query }.');
        const query = withoutUndefined({
          query: requireString('query', params.query),
          llmProviderId: optionalString('llmProviderId', params.llmProviderId),
          filter: filterText(params.filter),
          properties: serializeProperties(params.properties),
        });
        const history = historyOf(params);
        const trace = {
          spanName: `retrieval ${path.systemId}`,
          genAiOperation: 'retrieval',
          attributes: systemAttributes(path.systemId, query.llmProviderId),
          input: query.query,
        };
        return history
          ? {
              method: 'POST',
              path: '/api/qna/v1/systems/{systemId}/search',
              params: { path, query },
              body: { conversationHistory: history },
              trace,
            }
          : { method: 'GET', path: '/api/qna/v1/systems/{systemId}/search', params: { path, query }, trace };
      },
      readQueryResult<SearchResponse>,
    );
  }

  /** A retrieval-augmented answer with its contexts. A body with `status: FAILED` rejects with QueryFailedError. */
  answer(systemId: string, params: AnswerParams, options?: RequestOptions): APIPromise<AnswerResponse> {
    return this._call(
      'qna.answer',
      options,
      () => {
        const path = systemPath(systemId);
        checkParams(params, 'answer() needs { questionText, llmProviderId }.');
        const query = withoutUndefined({
          questionText: requireString('questionText', params.questionText),
          llmProviderId: requireString('llmProviderId', params.llmProviderId),
          filter: filterText(params.filter),
          properties: serializeProperties(params.properties),
        });
        const history = historyOf(params);
        const trace = {
          genAiOperation: 'chat',
          attributes: systemAttributes(path.systemId, query.llmProviderId),
          input: query.questionText,
        };
        return history
          ? {
              method: 'POST',
              path: '/api/qna/v1/systems/{systemId}/answer',
              params: { path, query },
              body: { conversationHistory: history },
              trace,
            }
          : { method: 'GET', path: '/api/qna/v1/systems/{systemId}/answer', params: { path, query }, trace };
      },
      readQueryResult<AnswerResponse>,
      { output: answerText },
    );
  }

  /**
   * The questions the system answered, by month asked (`"November 2026"`), each as question id (the
   * answer's `questionUuid`) to question text. Beyond the published contract.
   */
  history(systemId: string, options?: RequestOptions): APIPromise<QuestionHistory> {
    return this._call(
      'qna.history',
      options,
      () => ({
        method: 'GET',
        path: '/api/qna/v1/systems/{systemId}/questionshistory',
        params: { path: systemPath(systemId) },
        trace: systemTrace(systemId),
      }),
      readJson<QuestionHistory>,
    );
  }

  /**
   * An answered question: its answer (`llm_response`, parsed), model and quality scores. A record
   * whose `llm_response` is not an answer's JSON rejects with MalformedResponseError. Beyond the
   * published contract.
   */
  question(systemId: string, questionId: string, options?: RequestOptions): APIPromise<AnsweredQuestion> {
    return this._call(
      'qna.question',
      options,
      () => ({
        method: 'GET',
        path: '/api/qna/v1/systems/{systemId}/questions/{questionId}',
        params: {
          path: {
            systemId: requireId('systemId', systemId),
            questionId: requireId('questionId', questionId),
          },
        },
        trace: systemTrace(systemId),
      }),
      readAnsweredQuestion,
    );
  }

  /**
   * A document's data as a `Response`: read it with `text()`, `arrayBuffer()`, `blob()` or
   * stream `body`. The call's time-out and signal keep governing the body until it is read.
   * Pass `{ documentId, detail? }`, or a search result or answer context itself: its document id is
   * found with `documentIdOf` (an InvalidParameterError when it names none).
   */
  document(
    systemId: string,
    params: DocumentParams | DocumentSource,
    options?: RequestOptions,
  ): APIPromise<Response> {
    return this._call(
      'qna.document',
      options,
      () => {
        const path = systemPath(systemId);
        checkParams(params, 'document() needs { documentId } or a search result.');
        const query = withoutUndefined({
          documentId: documentIdFor(params),
          detail: optionalString('detail', (params as DocumentParams).detail),
        });
        return {
          method: 'GET',
          path: '/api/qna/v1/systems/{systemId}/document',
          params: { path, query },
          headers: ACCEPT_ANY,
          trace: systemTrace(path.systemId),
        };
      },
      (result, attempt) => guardBody(result.response, attempt.deadline, attempt.callMaxResponseBytes),
      { keepDeadline: true },
    );
  }
}

function systemPath(systemId: string): { systemId: string } {
  return { systemId: requireId('systemId', systemId) };
}

/** The span attributes of a call about one system. */
function systemTrace(systemId: string): { attributes: Attributes } {
  return { attributes: { 'dataworkz.qna_system.id': systemId } };
}

/** A search's or answer's span attributes: the system searched (`gen_ai.data_source.id`) and the LLM. */
function systemAttributes(systemId: string, llmProviderId: string | undefined): Attributes {
  const attributes: Attributes = { 'gen_ai.data_source.id': systemId };
  if (llmProviderId !== undefined) attributes['dataworkz.llm_provider.id'] = llmProviderId;
  return attributes;
}

function answerText(data: unknown): string | undefined {
  const answer = (data as { answer?: unknown } | undefined)?.answer;
  return typeof answer === 'string' ? answer : undefined;
}

/** The document id of `document()`'s argument: given, or found in a result. */
function documentIdFor(params: DocumentParams | DocumentSource): string {
  const given = (params as { documentId?: unknown }).documentId;
  if (typeof given === 'string' || !('link' in params || 'metadata' in params)) {
    return requireString('documentId', given);
  }
  const found = documentIdOf(params);
  if (found === undefined) {
    throw new InvalidParameterError(
      'documentId',
      'This result names no document id (its link is not a document-endpoint link); pass { documentId }.',
    );
  }
  return found;
}

/** The conversation to post, when one is given (undefined: a plain GET). */
function historyOf(params: { conversationHistory?: unknown }): ConversationMessage[] | undefined {
  return params.conversationHistory === undefined ? undefined : checkHistory(params.conversationHistory);
}

function checkParams(params: unknown, message: string): void {
  if (typeof params !== 'object' || params === null) throw new InvalidParameterError('params', message);
}

function filterText(value: FilterExpression | string | undefined): string | undefined {
  if (value === undefined || typeof value === 'string') return optionalString('filter', value);
  if (value instanceof FilterExpression) return value.toString();
  throw new InvalidParameterError(
    'filter',
    'filter must be a string or an expression made by the filter builder.',
  );
}
