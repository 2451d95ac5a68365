import type { Dataworkz, FilterExpression, Properties } from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { type AnswerMetadata, type PassageMetadata, toPassageDocument } from './documents.js';

/** Which system answers, and with which LLM configuration. */
export interface DataworkzAnswerRetrieverInput extends BaseRetrieverInput {
  /** The client every request goes through (its credential, retries and time-outs apply). */
  client: Dataworkz;
  /** The QnA system to ask: its id, or its exact name (any case), resolved on first use. */
  systemId: string;
  /**
   * The LLM configuration to answer with: its id, or its model name (any case), resolved on first use.
   * Default: the first the system lists (read once).
   */
  llmProviderId?: string | undefined;
  /** A metadata filter, built with the client's `filter`. */
  filter?: FilterExpression | string | undefined;
  /** Flags sent with each request. */
  properties?: Properties | undefined;
}

/**
 * Asks a Dataworkz QnA system and returns what it answered from: the contexts as documents, followed
 * by the generated answer as one more document flagged `metadata.answer === true` (tell them apart with
 * `isAnswerDocument`). For chains that want both the system's own answer and its sources.
 */
export class DataworkzAnswerRetriever extends BaseRetriever<PassageMetadata | AnswerMetadata> {
  static override lc_name(): string {
    return 'DataworkzAnswerRetriever';
  }

  lc_namespace = ['dataworkz', 'retrievers'];

  readonly client: Dataworkz;
  /** The QnA system as given: its id or its name. */
  readonly systemId: string;
  readonly filter: FilterExpression | string | undefined;
  readonly properties: Properties | undefined;
  /** The system's id and the LLM's, resolved once (a failed resolution is not kept). */
  readonly #resolved: () => Promise<{ systemId: string; llmProviderId: string }>;

  constructor(fields: DataworkzAnswerRetrieverInput) {
    super(fields);
    if (typeof fields.systemId !== 'string' || fields.systemId === '') {
      throw new TypeError('DataworkzAnswerRetriever needs { systemId }: the QnA system to ask.');
    }
    this.client = fields.client;
    this.systemId = fields.systemId;
    this.filter = fields.filter;
    this.properties = fields.properties;
    const { client, systemId } = this;
    const { llmProviderId: llm } = fields;
    this.#resolved = resolveOnce(async () => {
      const resolved = (await client.qna.resolve(systemId)).systemId;
      return {
        systemId: resolved,
        llmProviderId: (await client.qna.answeringLlm(resolved, llm)).llmProviderId,
      };
    });
  }

  override async _getRelevantDocuments(
    question: string,
  ): Promise<Document<PassageMetadata | AnswerMetadata>[]> {
    const { systemId, llmProviderId } = await this.#resolved();
    const result = await this.client.qna.answer(systemId, {
      questionText: question,
      llmProviderId,
      filter: this.filter,
      properties: this.properties,
    });
    const answer = new Document<AnswerMetadata>({
      pageContent: result.answer,
      metadata: { systemId, question, llmProviderId, answer: true },
    });
    return [...result.context.map((item) => toPassageDocument(item, systemId)), answer];
  }
}
