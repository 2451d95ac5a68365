import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { documentUri } from '../document-uri.js';
import { readDocument } from '../documents.js';
import { systemIdOf } from '../names.js';
import { asTool, structured } from '../tool-error.js';

const inputSchema = {
  systemId: z
    .string()
    .min(1)
    .describe('The QnA system the document belongs to: its id or its exact name (any case).'),
  documentId: z.string().min(1).describe('The documentId of a passage or citation.'),
};

const outputSchema = {
  systemId: z.string(),
  documentId: z.string(),
  uri: z.string().describe('The document as an MCP resource.'),
  mimeType: z.string(),
  text: z.string().optional().describe('The whole document, for text-like documents.'),
};

export function registerReadDocument(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'read_document',
    {
      title: 'Read a document',
      description:
        'Reads a whole document of a QnA system, named by the documentId of a search passage or answer citation. ' +
        'Text-like documents (plain text, markdown, JSON, ...) come back as text; others (PDF, Word, images) as a ' +
        'resource link with their type, which the client can read as a dataworkz:// resource.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ systemId: given, documentId }, extra) =>
      asTool(context.dw, 'read_document', extra, async () => {
        const systemId = await systemIdOf(context, given, extra.signal);
        const uri = documentUri(systemId, documentId);
        const data = await readDocument(context, systemId, documentId, extra.signal, 'skip');
        if (data.text !== undefined) {
          return structured({ systemId, documentId, uri, mimeType: data.mimeType, text: data.text });
        }
        return structured({ systemId, documentId, uri, mimeType: data.mimeType }, [
          { type: 'resource_link', uri, name: documentId, mimeType: data.mimeType },
        ]);
      }),
  );
}
