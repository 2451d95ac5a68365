import { type DocumentSource, documentIdOf } from '@dataworkz/client';

/** The URI template of document resources. */
export const DOCUMENT_URI_TEMPLATE = 'dataworkz://systems/{systemId}/documents/{documentId}';

/** The resource URI of a document of a QnA system. */
export function documentUri(systemId: string, documentId: string): string {
  return `dataworkz://systems/${encodeURIComponent(systemId)}/documents/${encodeURIComponent(documentId)}`;
}

/** The resource URI of the document a search result or answer context names, when it names one. */
export function documentUriOf(systemId: string, source: DocumentSource): string | undefined {
  const documentId = documentIdOf(source);
  return documentId === undefined ? undefined : documentUri(systemId, documentId);
}
