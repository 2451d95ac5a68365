import type { ToolContext } from './context.js';
import { requireSystem } from './exposure.js';

/** Largest document read through MCP; a longer one fails with ResponseTooLargeError. */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** A document's data as MCP carries it: text for text-like types, else base64. */
export type DocumentData = { mimeType: string; text: string } | { mimeType: string; blob: string };

// JSON, XML, YAML, CSV, markdown and the like read as text; PDFs, Word files and images do not.
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|yaml|x-yaml|csv|markdown|x-ndjson|javascript)\b)|\+(json|xml)\b/i;

function isTextLike(mimeType: string): boolean {
  return TEXT_TYPES.test(mimeType);
}

function mimeTypeOf(response: Response): string {
  return (
    (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim() ||
    'application/octet-stream'
  );
}

/**
 * The document's type, and its text when it is text-like. Otherwise, with `binary: 'read'`, its bytes
 * in base64; with `'skip'`, nothing more (the body is not read).
 */
export async function readDocument(
  context: ToolContext,
  systemId: string,
  documentId: string,
  signal: AbortSignal,
  binary: 'read',
): Promise<DocumentData>;
export async function readDocument(
  context: ToolContext,
  systemId: string,
  documentId: string,
  signal: AbortSignal,
  binary: 'skip',
): Promise<{ mimeType: string; text?: string }>;
export async function readDocument(
  { dw, exposure }: ToolContext,
  systemId: string,
  documentId: string,
  signal: AbortSignal,
  binary: 'read' | 'skip',
): Promise<{ mimeType: string; text?: string; blob?: string }> {
  requireSystem(await exposure(), systemId);
  const response = await dw.qna.document(
    systemId,
    { documentId },
    { signal, maxResponseBytes: MAX_DOCUMENT_BYTES },
  );
  const mimeType = mimeTypeOf(response);
  if (isTextLike(mimeType)) return { mimeType, text: await response.text() };
  if (binary === 'skip') {
    await response.body?.cancel();
    return { mimeType };
  }
  return { mimeType, blob: Buffer.from(await response.arrayBuffer()).toString('base64') };
}
