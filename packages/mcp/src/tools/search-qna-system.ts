import { filterOfFields } from '@dataworkz/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { filtersSchema } from '../filters.js';
import { systemIdOf } from '../names.js';
import { asTool, structured } from '../tool-error.js';
import { passageSchema, resourceLinks, toPassage } from './passages.js';

const inputSchema = {
  systemId: z
    .string()
    .min(1)
    .describe(
      'The QnA system to search: its id or its exact name (any case), as list_qna_systems gives them.',
    ),
  query: z.string().min(1).describe('What to search for, in natural language or keywords.'),
  filters: filtersSchema.optional(),
  maxResults: z.number().int().min(1).max(100).optional().describe('Return at most this many passages.'),
};

const outputSchema = {
  systemId: z.string(),
  query: z.string(),
  questionUuid: z.string(),
  appliedFilters: z.string().optional().describe('The filter expression the service applied.'),
  passages: z.array(passageSchema),
};

export function registerSearchQnaSystem(server: McpServer, context: ToolContext): void {
  const { dw } = context;
  server.registerTool(
    'search_qna_system',
    {
      title: 'Search a QnA system',
      description:
        'Semantic search in one Dataworkz QnA system: returns the passages that match the query, best first, each with ' +
        'its source, its link and, when the service names its document, a dataworkz:// resource URI to read the whole ' +
        'document. Filters restrict retrieval by metadata (the fields list_qna_systems gives). Use it to find ' +
        'material; use answer_question for a written answer with citations.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ systemId: given, query, filters, maxResults }, extra) =>
      asTool(dw, 'search_qna_system', extra, async () => {
        const systemId = await systemIdOf(context, given, extra.signal);
        const result = await dw.qna.search(
          systemId,
          { query, filter: filterOfFields(filters) },
          { signal: extra.signal },
        );
        const passages = result.searchResultsList
          .slice(0, maxResults ?? result.searchResultsList.length)
          .map((item) => toPassage(systemId, item));
        return structured(
          {
            systemId,
            query,
            questionUuid: result.questionUuid,
            ...(result.appliedFilters ? { appliedFilters: result.appliedFilters } : {}),
            passages,
          },
          resourceLinks(passages),
        );
      }),
  );
}
