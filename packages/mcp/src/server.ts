import { createRequire } from 'node:module';
import type { Dataworkz } from '@dataworkz/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerDocumentResource } from './document-resource.js';
import { type Exposure, lazyExposure } from './exposure.js';
import { registerAnswerQuestion } from './tools/answer-question.js';
import { registerAskAgent } from './tools/ask-agent.js';
import { registerListAgents } from './tools/list-agents.js';
import { registerListQnaSystems } from './tools/list-qna-systems.js';
import { registerReadDocument } from './tools/read-document.js';
import { registerSearchQnaSystem } from './tools/search-qna-system.js';

export interface DataworkzMcpServerOptions extends Exposure {
  /** The client every call goes through; it holds the credential, which MCP never sees. */
  dw: Dataworkz;
}

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The names of the tools the server offers. */
export const TOOL_NAMES = [
  'list_qna_systems',
  'search_qna_system',
  'answer_question',
  'list_agents',
  'ask_agent',
  'read_document',
] as const;

/** An MCP server offering the account's QnA systems and agents as tools, and their documents as resources. */
export function createDataworkzMcpServer(options: DataworkzMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'dataworkz', title: 'Dataworkz', version },
    {
      instructions:
        'Dataworkz QnA systems (knowledge bases) and agents. list_qna_systems and list_agents say what is available; ' +
        'search_qna_system finds passages, answer_question answers with citations, ask_agent runs an agent, ' +
        'read_document reads a cited document.',
    },
  );
  const exposure = lazyExposure(options.dw, { systems: options.systems, agents: options.agents });
  const context = { dw: options.dw, exposure };
  registerListQnaSystems(server, context);
  registerSearchQnaSystem(server, context);
  registerAnswerQuestion(server, context);
  registerListAgents(server, context);
  registerAskAgent(server, context);
  registerReadDocument(server, context);
  registerDocumentResource(server, context);
  return server;
}
