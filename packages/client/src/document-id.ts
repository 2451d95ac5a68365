/** What a search result or an answer's context can tell about its document. */
export interface DocumentSource {
  link?: string | undefined;
  metadata?: { [key: string]: unknown } | undefined;
}

// A base for links that are paths (`/api/qna/v1/.../document?documentId=...`): only the query is read.
const LINK_BASE = 'http://link.invalid';

/**
 * The id that `qna.document()` takes for a search result or an answer's context: its `documentId`
 * field, else a `documentId` in its metadata, else the `documentId` query parameter of its `link`.
 * Undefined when the result names none (a `link` that is the source file's URI, such as
 * `s3a://bucket/file.pdf`, carries no id).
 */
export function documentIdOf(result: DocumentSource): string | undefined {
  const candidates = [
    (result as { documentId?: unknown }).documentId,
    result.metadata?.documentId,
    result.metadata?.document_id,
  ];
  for (const candidate of candidates) if (typeof candidate === 'string' && candidate !== '') return candidate;
  if (typeof result.link !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(result.link, LINK_BASE);
  } catch {
    return undefined;
  }
  return url.searchParams.get('documentId') || undefined;
}
