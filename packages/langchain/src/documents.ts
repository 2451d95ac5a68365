import { type Passage, passageOf, type SearchResultItem } from '@dataworkz/client';
import { Document } from '@langchain/core/documents';

/**
 * What a retrieved passage's `metadata` holds: the client's `Passage` but its text (the document's
 * `pageContent`), and the system it came from. The passage's own metadata is under `metadata`.
 */
export interface PassageMetadata extends Omit<Passage, 'text'> {
  /** The QnA system it was retrieved from. */
  systemId: string;
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
  const { text, ...passage } = passageOf(item);
  return new Document<PassageMetadata>({
    pageContent: text,
    metadata: { systemId, ...passage, answer: false },
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
