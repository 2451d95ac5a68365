import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from './context.js';
import { DOCUMENT_URI_TEMPLATE } from './document-uri.js';
import { readDocument } from './documents.js';

/** Documents of the exposed QnA systems as `dataworkz://systems/{systemId}/documents/{documentId}`. */
export function registerDocumentResource(server: McpServer, context: ToolContext): void {
  server.registerResource(
    'document',
    // Documents are found through search and answers; the service has no call that lists them all.
    new ResourceTemplate(DOCUMENT_URI_TEMPLATE, { list: undefined }),
    {
      title: 'QnA system document',
      description:
        'A document of a Dataworkz QnA system: text for text-like documents, else its bytes (base64). ' +
        'Search passages and answer citations give these URIs.',
    },
    async (uri, variables, extra) => {
      const systemId = single(variables.systemId);
      const documentId = single(variables.documentId);
      try {
        const data = await readDocument(context, systemId, documentId, extra.signal, 'read');
        return { contents: [{ uri: uri.href, ...data }] };
      } catch (error) {
        // Resource reads have no error result: the failure is the JSON-RPC error, redacted the same way.
        throw context.dw.redact(error);
      }
    },
  );
}

function single(value: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
}
