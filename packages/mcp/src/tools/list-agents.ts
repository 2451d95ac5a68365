import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { agentExposed } from '../exposure.js';
import { asTool, structured } from '../tool-error.js';

const outputSchema = {
  agents: z.array(z.object({ agentId: z.string(), name: z.string(), description: z.string() })),
};

export function registerListAgents(server: McpServer, { dw, exposure }: ToolContext): void {
  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description:
        'Lists the Dataworkz agents this server exposes, with what each one does. Call it to choose an agentId for ask_agent.',
      inputSchema: {},
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (_args, extra) =>
      asTool(dw, 'list_agents', extra, async () => {
        const list = await dw.agents.list({ signal: extra.signal });
        const exposed = await exposure();
        const agents = list
          .filter((agent) => agentExposed(exposed, agent.agentId))
          .map(({ agentId, name, description }) => ({ agentId, name, description }));
        return structured({ agents });
      }),
  );
}
