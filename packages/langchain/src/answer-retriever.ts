import type { Dataworkz, FilterExpression, Properties } from '@dataworkz/client';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { type AnswerMetadata, type PassageMetadata, toPassageDocument } from './documents.js';
import { answeringLlm } from './llm-choice.js';

/** Which system answers, and with which LLM configuration. */
export interface DataworkzAnswerRetrieverInput extends BaseRetrieverInput {
  /** The client every request goes through (its credential, retries and time-outs apply). */
  client: Dataworkz;
  /** The QnA system to ask. */
  systemId: string;
  /** The LLM configuration to answer with. Default: the first the system lists (read once). */
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
  readonly systemId: string;
  readonly filter: FilterExpression | string | undefined;
  readonly properties: Properties | undefined;
  private llm: Promise<string> | undefined;

  constructor(fields: DataworkzAnswerRetrieverInput) {
    super(fields);
    if (typeof fields.systemId !== 'string' || fields.systemId === '') {
      throw new TypeError('DataworkzAnswerRetriever needs { systemId }: the QnA system to ask.');
    }
    this.client = fields.client;
    this.systemId = fields.systemId;
    this.filter = fields.filter;
    this.properties = fields.properties;
    if (fields.llmProviderId !== undefined) this.llm = Promise.resolve(fields.llmProviderId);
  }

  override async _getRelevantDocuments(
    question: string,
  ): Promise<Document<PassageMetadata | AnswerMetadata>[]> {
    // Read once; a failed read is not kept, so the next question tries again.
    this.llm ??= answeringLlm(this.client, this.systemId, undefined).catch((error: unknown) => {
      this.llm = undefined;
      throw error;
    });
    const llmProviderId = await this.llm;
    const result = await this.client.qna.answer(this.systemId, {
      questionText: question,
      llmProviderId,
      filter: this.filter,
      properties: this.properties,
    });
    const answer = new Document<AnswerMetadata>({
      pageContent: result.answer,
      metadata: { systemId: this.systemId, question, llmProviderId, answer: true },
    });
    return [...result.context.map((item) => toPassageDocument(item, this.systemId)), answer];
  }
}
