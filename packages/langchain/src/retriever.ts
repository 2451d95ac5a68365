import type { Dataworkz, FilterExpression, Properties } from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import type { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { type PassageMetadata, toPassageDocument } from './documents.js';

/** Where and how a Dataworkz retriever searches. */
export interface DataworkzRetrieverInput extends BaseRetrieverInput {
  /** The client every request goes through (its credential, retries and time-outs apply). */
  client: Dataworkz;
  /** The QnA system to search: its id, or its exact name (any case), resolved on first use. */
  systemId: string;
  /** A metadata filter, built with the client's `filter` (e.g. `filter.in('topic', ['returns'])`). */
  filter?: FilterExpression | string | undefined;
  /** Keep at most this many documents, best first. Default: all the service returns. */
  maxResults?: number | undefined;
  /** Flags sent with each request, such as `{ include_probe: false }`. */
  properties?: Properties | undefined;
}

/**
 * A LangChain retriever over a Dataworkz QnA system: each query is a semantic search, and each passage
 * found becomes a `Document` (the passage as `pageContent`; source, type, link, document id, score and
 * system in `metadata`), best first.
 */
export class DataworkzRetriever extends BaseRetriever<PassageMetadata> {
  static override lc_name(): string {
    return 'DataworkzRetriever';
  }

  lc_namespace = ['dataworkz', 'retrievers'];

  readonly client: Dataworkz;
  /** The QnA system as given: its id or its name. */
  readonly systemId: string;
  readonly filter: FilterExpression | string | undefined;
  readonly maxResults: number | undefined;
  readonly properties: Properties | undefined;
  /** The system's id: `systemId` when it is one, else the id of the system it names (listed once). */
  readonly #systemId: () => Promise<string>;

  constructor(fields: DataworkzRetrieverInput) {
    super(fields);
    if (typeof fields.systemId !== 'string' || fields.systemId === '') {
      throw new TypeError('DataworkzRetriever needs { systemId }: the QnA system to search.');
    }
    if (fields.maxResults !== undefined && !(Number.isInteger(fields.maxResults) && fields.maxResults > 0)) {
      throw new TypeError('DataworkzRetriever: maxResults must be a positive integer.');
    }
    this.client = fields.client;
    this.systemId = fields.systemId;
    this.filter = fields.filter;
    this.maxResults = fields.maxResults;
    this.properties = fields.properties;
    const { client, systemId } = this;
    this.#systemId = resolveOnce(async () => (await client.qna.resolve(systemId)).systemId);
  }

  override async _getRelevantDocuments(query: string): Promise<Document<PassageMetadata>[]> {
    const systemId = await this.#systemId();
    const result = await this.client.qna.search(systemId, {
      query,
      filter: this.filter,
      properties: this.properties,
    });
    const items = result.searchResultsList.slice(0, this.maxResults);
    return items.map((item) => toPassageDocument(item, systemId));
  }
}
