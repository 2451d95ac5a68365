import { documentIdOf, type SearchResultItem, type WithUnknownFields } from '@dataworkz/client';

/** A passage of a search result or an answer's context, as the tools return it to the model. */
export interface Passage {
  /** The matching content. */
  text: string;
  title?: string;
  /** Where the passage came from (collection, dataset, column). */
  source: string;
  /** Kind of document: pdf, word, text, link, ... */
  type?: string;
  /** The service's link to the document. */
  link: string;
  documentId?: string;
  /** Similarity to the query. */
  score?: number;
  metadata?: { [key: string]: unknown };
}

export function toPassage(item: SearchResultItem): Passage {
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
