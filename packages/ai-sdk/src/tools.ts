import { type AgentToolAnswer, askAgent, type StreamAgentOptions } from '@dataworkz/a2a';
import {
  type Dataworkz,
  type FilterFields,
  filterOfFields,
  filtersSchema as filtersSchemaWith,
  type Passage,
  passageOf,
} from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import { type Tool, tool } from 'ai';
import { z } from 'zod';

const filtersSchema = filtersSchemaWith<z.ZodType<FilterFields>>(
  z,
  'Field names are the metadata fields of the system.',
);

/** Which systems and agents the tools offer, and what the application adds to every agent call. */
export interface DataworkzToolsOptions {
  /**
   * The QnA systems the model may search and ask, each by its id or its exact name (any case; the model
   * chooses among them as written here); without it, no search or answer tools. Names are resolved once,
   * on the first call, with one list call.
   */
  systems?: readonly string[] | undefined;
  /** The agents the model may ask, by id or exact name (any case), as `systems`; without it, no agent tool. */
  agents?: readonly string[] | undefined;
  /**
   * The LLM `answer_question` answers with: its id, or its model name (any case), looked up among each
   * system's LLMs once. Default: the first each system lists.
   */
  llmProviderId?: string | undefined;
  /**
   * Context values sent with every agent call (the signed-in user, their locale...). Set by the
   * application, never by the model, so a prompt cannot change who the agent acts for.
   */
  contextValues?: StreamAgentOptions['contextValues'];
}

/** What the model passes to `search_qna_system`. */
export interface SearchInput {
  systemId: string;
  query: string;
  filters?: { [field: string]: (string | number | boolean)[] } | undefined;
  maxResults?: number | undefined;
}

/** What `search_qna_system` hands back to the model: the passages found. */
export interface SearchOutput {
  systemId: string;
  query: string;
  passages: Passage[];
}

/** What the model passes to `answer_question`. */
export interface AnswerInput {
  systemId: string;
  question: string;
  filters?: { [field: string]: (string | number | boolean)[] } | undefined;
}

/** What `answer_question` hands back to the model: the answer and its citations. */
export interface AnswerOutput {
  systemId: string;
  question: string;
  /** The answer; [n] marks cite citations[n-1]. */
  answer: string;
  citations: (Passage & { index: number })[];
}

/** What the model passes to `ask_agent`. */
export interface AskAgentInput {
  agentId: string;
  text: string;
  contextId?: string | undefined;
  taskId?: string | undefined;
}

/** What `ask_agent` hands back to the model: the agent's answer, or its question. */
export type AskAgentOutput = AgentToolAnswer;

/**
 * The tools, by the name the model calls them with; only those the options allow are present. A type
 * alias, not an interface, so that it is assignable to the AI SDK's `ToolSet`.
 */
export type DataworkzTools = {
  search_qna_system?: Tool<SearchInput, SearchOutput>;
  answer_question?: Tool<AnswerInput, AnswerOutput>;
  ask_agent?: Tool<AskAgentInput, AskAgentOutput>;
};

/** The allowed entries (ids or names) as the schema of a choice: the model can only name one of them. */
function idSchema(entries: readonly string[], what: string) {
  const [first, ...rest] = entries;
  if (first === undefined) throw new TypeError(`dataworkzTools: ${what} is empty.`);
  return z.enum([first, ...rest]);
}

/** The id each allowed entry names, resolved once with one list call through the client's resolver. */
function idsOf(entries: readonly string[], resolveAll: (entries: readonly string[]) => Promise<string[]>) {
  const ids = resolveOnce(async () => {
    const resolved = await resolveAll(entries);
    return new Map(entries.map((entry, index) => [entry, resolved[index] as string]));
  });
  return async (entry: string): Promise<string> => (await ids()).get(entry) ?? entry;
}

/**
 * AI SDK tools over a Dataworkz account, for `generateText`, `streamText` and agents: search and
 * answer for the given QnA systems, and asking the given agents. Every call goes through `dw`.
 */
export function dataworkzTools(dw: Dataworkz, options: DataworkzToolsOptions): DataworkzTools {
  const tools: DataworkzTools = {};
  const { systems, agents, contextValues, llmProviderId: llm } = options;
  if (systems !== undefined) {
    const systemId = idSchema(systems, 'systems').describe('The QnA system.');
    const systemIdOf = idsOf(systems, async (entries) =>
      (await dw.qna.resolveAll(entries)).map((system) => system.systemId),
    );
    // Per system, the LLM to answer with, read once.
    const llms = new Map<string, () => Promise<string>>();
    const llmOf = (id: string) => {
      let read = llms.get(id);
      if (read === undefined) {
        read = resolveOnce(async () => (await dw.qna.answeringLlm(id, llm)).llmProviderId);
        llms.set(id, read);
      }
      return read();
    };
    tools.search_qna_system = tool({
      description:
        'Semantic search in a Dataworkz QnA system: the passages matching the query, best first, each with its ' +
        'source and link. Use it to find material; use answer_question for a written answer with citations.',
      inputSchema: z.object({
        systemId,
        query: z.string().min(1).describe('What to search for.'),
        filters: filtersSchema.optional(),
        maxResults: z.number().int().min(1).max(100).optional().describe('Return at most this many.'),
      }),
      execute: async ({ systemId: chosen, query, filters, maxResults }, { abortSignal }) => {
        const systemId = await systemIdOf(chosen);
        const result = await dw.qna.search(
          systemId,
          { query, filter: filterOfFields(filters) },
          { signal: abortSignal },
        );
        const items = result.searchResultsList.slice(0, maxResults ?? result.searchResultsList.length);
        return { systemId, query, passages: items.map(passageOf) };
      },
    }) as Tool<SearchInput, SearchOutput>;
    tools.answer_question = tool({
      description:
        "Asks a Dataworkz QnA system a question: its answer, written from the system's documents, and the passages " +
        'it was written from. Markers such as [1] in the answer point at citations by index.',
      inputSchema: z.object({
        systemId,
        question: z.string().min(1).describe('The question.'),
        filters: filtersSchema.optional(),
      }),
      execute: async ({ systemId: chosen, question, filters }, { abortSignal }) => {
        const request = { signal: abortSignal };
        const systemId = await systemIdOf(chosen);
        const llmProviderId = await llmOf(systemId);
        const result = await dw.qna.answer(
          systemId,
          { questionText: question, llmProviderId, filter: filterOfFields(filters) },
          request,
        );
        const citations = result.context.map((item, index) => ({ index: index + 1, ...passageOf(item) }));
        return { systemId, question, answer: result.answer, citations };
      },
    }) as Tool<AnswerInput, AnswerOutput>;
  }
  if (agents !== undefined) {
    const agentIdOf = idsOf(agents, async (entries) =>
      (await dw.agents.resolveAll(entries)).map((agent) => agent.agentId),
    );
    tools.ask_agent = tool({
      description:
        'Sends a message to a Dataworkz agent and returns its answer. When the agent needs more (inputRequired ' +
        'true), the answer is its question: ask the user, then call ask_agent again with the reply as text and ' +
        'the taskId and contextId returned. Pass contextId alone for a follow-up in the same conversation.',
      inputSchema: z.object({
        agentId: idSchema(agents, 'agents').describe('The agent.'),
        text: z.string().min(1).describe('The request, or the reply to the agent’s question.'),
        contextId: z.string().min(1).optional().describe('The contextId of an earlier call, to continue it.'),
        taskId: z.string().min(1).optional().describe('The taskId of a call whose agent asked back.'),
      }),
      execute: async ({ agentId: chosen, text, contextId, taskId }, { abortSignal }) => {
        const agentId = await agentIdOf(chosen);
        return askAgent(dw, agentId, { text, contextId, taskId, contextValues, signal: abortSignal });
      },
    }) as Tool<AskAgentInput, AskAgentOutput>;
  }
  return tools;
}
