import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { systemExposed } from '../exposure.js';
import { asTool, structured } from '../tool-error.js';

const filterField = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string(),
  values: z.array(z.unknown()).optional().describe('The distinct values, for fields with few of them.'),
});

const outputSchema = {
  systems: z.array(
    z.object({
      systemId: z.string(),
      name: z.string(),
      prompt: z.string().optional().describe("The system's own instructions: what it answers from."),
      status: z.string().optional(),
      filters: z.array(filterField).describe('Metadata fields search and answer_question can filter on.'),
    }),
  ),
};

export function registerListQnaSystems(server: McpServer, { dw, exposure }: ToolContext): void {
  server.registerTool(
    'list_qna_systems',
    {
      title: 'List QnA systems',
      description:
        "Lists the Dataworkz QnA (RAG) systems this server exposes: each one's id, name, its prompt (what it answers from) " +
        'and the metadata fields its retrieval can be filtered on, with their values where there are few. ' +
        'Call it first to choose a systemId for search_qna_system and answer_question.',
      inputSchema: {},
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (_args, extra) =>
      asTool(dw, 'list_qna_systems', extra, async () => {
        const options = { signal: extra.signal };
        const all = await dw.qna.list(options);
        const exposed = await exposure();
        const ids = Object.keys(all).filter((systemId) => systemExposed(exposed, systemId));
        const systems = await Promise.all(
          ids.map(async (systemId) => {
            const [details, { filters }] = await Promise.all([
              dw.qna.get(systemId, options),
              dw.qna.filters(systemId, options),
            ]);
            return {
              systemId,
              name: details.name ?? all[systemId] ?? systemId,
              ...(details.prompt ? { prompt: details.prompt } : {}),
              ...(details.status ? { status: details.status } : {}),
              filters: filters.map((field) => ({
                name: field.name,
                type: field.type,
                description: field.description,
                ...(field.values ? { values: field.values } : {}),
              })),
            };
          }),
        );
        return structured({ systems });
      }),
  );
}
