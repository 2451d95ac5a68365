import { documentIdOf, type SearchResultItem, type WithUnknownFields } from '@dataworkz/client';
import { Document } from '@langchain/core/documents';

/** What a retrieved passage's `metadata` holds. */
export interface PassageMetadata {
  /** The QnA system it was retrieved from. */
  systemId: string;
  /** Where the passage came from (collection, dataset, column). */
  source: string;
  /** Kind of document: pdf, word, text, link, ... */
  type?: string;
  /** The service's link to the document. */
  link: string;
  /** The document's id, for `dw.qna.document()`. */
  documentId?: string;
  /** Similarity to the query, as the service scored it. */
  score?: number;
  title?: string;
  /** The metadata the system keeps for the passage (the fields filters match on). */
  fields?: { [key: string]: unknown };
  /** Always false: the generated answer of `DataworkzAnswerRetriever` is the only document with `answer: true`. */
  answer: false;
}

/** What the generated answer's `metadata` holds (see `DataworkzAnswerRetriever`). */
export interface AnswerMetadata {
  systemId: string;
  /** The question the answer answers. */
  question: string;
  /** The LLM configuration that wrote it. */
  llmProviderId: string;
  /** Marks the generated answer among the retrieved contexts. */
  answer: true;
}

/** A search result item as a LangChain document: the passage as `pageContent`. */
export function toPassageDocument(item: SearchResultItem, systemId: string): Document<PassageMetadata> {
  const documentId = documentIdOf(item);
  const title = (item as WithUnknownFields<SearchResultItem>).title;
  return new Document<PassageMetadata>({
    pageContent: item.data ?? item.contents ?? '',
    metadata: {
      systemId,
      source: item.source,
      ...(item.type !== undefined ? { type: item.type } : {}),
      link: item.link,
      ...(documentId !== undefined ? { documentId } : {}),
      ...(item.similarityScore !== undefined ? { score: item.similarityScore } : {}),
      ...(typeof title === 'string' ? { title } : {}),
      ...(item.metadata !== undefined ? { fields: item.metadata } : {}),
      answer: false,
    },
  });
}

/** Whether a document is the answer `DataworkzAnswerRetriever` generated, rather than a context. */
export function isAnswerDocument(document: Document): document is Document<AnswerMetadata> {
  return document.metadata.answer === true;
}

/** The documents of `DataworkzAnswerRetriever`, apart: the generated answer and the contexts it used. */
export function splitAnswer(documents: readonly Document[]): {
  answer: Document<AnswerMetadata> | undefined;
  contexts: Document<PassageMetadata>[];
} {
  const answer = documents.find(isAnswerDocument);
  const contexts = documents.filter((document) => !isAnswerDocument(document)) as Document<PassageMetadata>[];
  return { answer, contexts };
}
