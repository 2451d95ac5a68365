import type { Client } from 'openapi-fetch';
import { type APIPromise, apiPromise } from '../core/api-promise.js';
import { guardBody } from '../core/body.js';
import { checkHistory } from '../core/conversation.js';
import { InvalidParameterError } from '../core/errors.js';
import { pickByIdOrName, type ResolveOptions, requireIdOrName } from '../core/names.js';
import { optionalString, requireId, requireString, withoutUndefined } from '../core/params.js';
import { readJson, readQueryResult } from '../core/read.js';
import { type AnsweredQuestion, readAnsweredQuestion } from '../core/read-question.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import { type DocumentSource, documentIdOf } from '../document-id.js';
import { FilterExpression } from '../filter.js';
import type { paths } from '../generated/schema.js';
import { type Properties, serializeProperties } from '../properties.js';
import type {
  AnswerResponse,
  ConversationMessage,
  FilterList,
  LlmProviderMap,
  QnaSystemDetails,
  QnaSystemMap,
  QuestionHistory,
  SearchResponse,
} from '../types.js';

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

export interface DocumentParams {
  /** The id of a document in the dataset (`documentIdOf(result)` finds it for a search result). */
  documentId: string;
  /** The detail of the document data requested. */
  detail?: string | undefined;
}

const ACCEPT_ANY = { accept: '*/*' };

/** QnA systems (RAG applications): details, LLM configurations, search, answer, filters, documents. */
export class Qna {
  private readonly raw: Client<paths>;
  private readonly transport: Transport;

  constructor(raw: Client<paths>, transport: Transport) {
    this.raw = raw;
    this.transport = transport;
  }

  /** Every QnA system: id to name. */
  list(options?: RequestOptions): APIPromise<QnaSystemMap> {
    return apiPromise(() => {
      return this.transport.execute(
        'qna.list',
        (init) => this.raw.GET('/api/qna/v1/systems', { ...init, parseAs: 'stream' }),
        readJson<QnaSystemMap>,
        options,
      );
    });
  }

  /**
   * The QnA system `idOrName` names: its id, or its exact name without regard to case, found with
   * one `list()`. Rejects with UnknownNameError (naming the close matches) or AmbiguousNameError.
   */
  async resolve(idOrName: string, options?: ResolveOptions): Promise<{ systemId: string; name: string }> {
    requireIdOrName('QnA system', idOrName);
    const { within, ...request } = options ?? {};
    const systems = Object.entries(await this.list(request)).map(([id, name]) => ({
      id,
      name: String(name),
    }));
    const { id, name } = pickByIdOrName('QnA system', idOrName, systems, within);
    return { systemId: id, name };
  }

  /** A system's details. */
  get(systemId: string, options?: RequestOptions): APIPromise<QnaSystemDetails> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      return this.transport.execute(
        'qna.get',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}', { ...init, params: { path }, parseAs: 'stream' }),
        readJson<QnaSystemDetails>,
        options,
      );
    });
  }

  /** The system's LLM configurations: id to model name. */
  llmProviders(systemId: string, options?: RequestOptions): APIPromise<LlmProviderMap> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      return this.transport.execute(
        'qna.llmProviders',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}/llm-providers', {
            ...init,
            params: { path },
            parseAs: 'stream',
          }),
        readJson<LlmProviderMap>,
        options,
      );
    });
  }

  /** The metadata fields retrieval can be filtered on. */
  filters(systemId: string, options?: RequestOptions): APIPromise<FilterList> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      return this.transport.execute(
        'qna.filters',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}/filters', {
            ...init,
            params: { path },
            parseAs: 'stream',
          }),
        readJson<FilterList>,
        options,
      );
    });
  }

  /** Semantic search. A body with `status: FAILED` rejects with QueryFailedError. */
  search(systemId: string, params: SearchParams, options?: RequestOptions): APIPromise<SearchResponse> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      checkParams(params, 'search() needs { query }.');
      const query = withoutUndefined({
        query: requireString('query', params.query),
        llmProviderId: optionalString('llmProviderId', params.llmProviderId),
        filter: filterText(params.filter),
        properties: serializeProperties(params.properties),
      });
      const history = historyOf(params);
      return this.transport.execute(
        'qna.search',
        (init) =>
          history
            ? this.raw.POST('/api/qna/v1/systems/{systemId}/search', {
                ...init,
                params: { path, query },
                body: { conversationHistory: history },
                parseAs: 'stream',
              })
            : this.raw.GET('/api/qna/v1/systems/{systemId}/search', {
                ...init,
                params: { path, query },
                parseAs: 'stream',
              }),
        readQueryResult<SearchResponse>,
        options,
      );
    });
  }

  /** A retrieval-augmented answer with its contexts. A body with `status: FAILED` rejects with QueryFailedError. */
  answer(systemId: string, params: AnswerParams, options?: RequestOptions): APIPromise<AnswerResponse> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      checkParams(params, 'answer() needs { questionText, llmProviderId }.');
      const query = withoutUndefined({
        questionText: requireString('questionText', params.questionText),
        llmProviderId: requireString('llmProviderId', params.llmProviderId),
        filter: filterText(params.filter),
        properties: serializeProperties(params.properties),
      });
      const history = historyOf(params);
      return this.transport.execute(
        'qna.answer',
        (init) =>
          history
            ? this.raw.POST('/api/qna/v1/systems/{systemId}/answer', {
                ...init,
                params: { path, query },
                body: { conversationHistory: history },
                parseAs: 'stream',
              })
            : this.raw.GET('/api/qna/v1/systems/{systemId}/answer', {
                ...init,
                params: { path, query },
                parseAs: 'stream',
              }),
        readQueryResult<AnswerResponse>,
        options,
      );
    });
  }

  /**
   * The questions the system answered, by month asked (`"November 2026"`), each as question id (the
   * answer's `questionUuid`) to question text. Beyond the published contract.
   */
  history(systemId: string, options?: RequestOptions): APIPromise<QuestionHistory> {
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      return this.transport.execute(
        'qna.history',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}/questionshistory', {
            ...init,
            params: { path },
            parseAs: 'stream',
          }),
        readJson<QuestionHistory>,
        options,
      );
    });
  }

  /**
   * An answered question: its answer (`llm_response`, parsed), model and quality scores. A record
   * whose `llm_response` is not an answer's JSON rejects with MalformedResponseError. Beyond the
   * published contract.
   */
  question(systemId: string, questionId: string, options?: RequestOptions): APIPromise<AnsweredQuestion> {
    return apiPromise(() => {
      const path = {
        systemId: requireId('systemId', systemId),
        questionId: requireId('questionId', questionId),
      };
      return this.transport.execute(
        'qna.question',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}/questions/{questionId}', {
            ...init,
            params: { path },
            parseAs: 'stream',
          }),
        readAnsweredQuestion,
        options,
      );
    });
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
    return apiPromise(() => {
      const path = { systemId: requireId('systemId', systemId) };
      checkParams(params, 'document() needs { documentId } or a search result.');
      const query = withoutUndefined({
        documentId: documentIdFor(params),
        detail: optionalString('detail', (params as DocumentParams).detail),
      });
      return this.transport.execute(
        'qna.document',
        (init) =>
          this.raw.GET('/api/qna/v1/systems/{systemId}/document', {
            ...init,
            headers: init.headers ? { ...ACCEPT_ANY, ...init.headers } : ACCEPT_ANY,
            params: { path, query },
            parseAs: 'stream',
          }),
        (result, attempt) => guardBody(result.response, attempt.deadline, attempt.callMaxResponseBytes),
        options,
        true,
      );
    });
  }
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
