/** The URI template of document resources. */
export const DOCUMENT_URI_TEMPLATE = 'dataworkz://systems/{systemId}/documents/{documentId}';

/** The resource URI of a document of a QnA system. */
export function documentUri(systemId: string, documentId: string): string {
  return `dataworkz://systems/${encodeURIComponent(systemId)}/documents/${encodeURIComponent(documentId)}`;
}
