import { documentIdOf } from './document-id.js';
import type { SearchResultItem, WithUnknownFields } from './types.js';

/**
 * A passage of a search result or of an answer's context, in the shape every Dataworkz tool hands a
 * model (the MCP server, the AI SDK and LangChain tools, the CLI): absent facts are left out.
 */
export interface Passage {
  /** The matching content. */
  text: string;
  /** The document's title, when the service gives one. */
  title?: string;
  /** Where the passage came from (collection, dataset, column). */
  source: string;
  /** Kind of document: pdf, word, text, link, ... */
  type?: string;
  /** The service's link to the document. */
  link: string;
  /** The document's id, for `qna.document()`. */
  documentId?: string;
  /** Similarity to the query, as the service scored it. */
  score?: number;
  /** The metadata the system keeps for the passage (the fields filters match on). */
  metadata?: { [key: string]: unknown };
}

/** A search result item (or an answer's context item) as a `Passage`. */
export function passageOf(item: SearchResultItem): Passage {
  const documentId = documentIdOf(item);
  const title = (item as WithUnknownFields<SearchResultItem>).title;
  return {
    text: item.data ?? item.contents ?? '',
    ...(typeof title === 'string' ? { title } : {}),
    source: item.source,
    ...(item.type !== undefined ? { type: item.type } : {}),
    link: item.link,
    ...(documentId !== undefined ? { documentId } : {}),
    ...(item.similarityScore !== undefined ? { score: item.similarityScore } : {}),
    ...(item.metadata !== undefined ? { metadata: item.metadata } : {}),
  };
}
