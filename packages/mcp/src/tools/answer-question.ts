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
    .describe('The QnA system to ask: its id or its exact name (any case), as list_qna_systems gives them.'),
  question: z.string().min(1).describe('The question, in natural language.'),
  filters: filtersSchema.optional(),
  llmProviderId: z
    .string()
    .min(1)
    .optional()
    .describe(
      "An LLM configuration of the system: its id, or its model name (any case); the system's first one when absent.",
    ),
};

const outputSchema = {
  systemId: z.string(),
  question: z.string(),
  questionUuid: z.string(),
  answer: z.string().describe('The answer; [n] marks cite citations[n-1].'),
  citations: z
    .array(passageSchema.extend({ index: z.number().int().describe('The n of [n] in the answer.') }))
    .describe('The passages the answer was written from, in order.'),
};

export function registerAnswerQuestion(server: McpServer, context: ToolContext): void {
  const { dw } = context;
  server.registerTool(
    'answer_question',
    {
      title: 'Answer a question from a QnA system',
      description:
        'Asks one Dataworkz QnA system a question and returns its retrieval-augmented answer with citations: the ' +
        'passages the answer was written from, each with its source and a dataworkz:// resource URI of its document. ' +
        'Markers such as [1] in the answer point at citations by index. Filters restrict retrieval by metadata.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ systemId: given, question, filters, llmProviderId }, extra) =>
      asTool(dw, 'answer_question', extra, async () => {
        const systemId = await systemIdOf(context, given, extra.signal);
        const options = { signal: extra.signal };
        const llm = (await dw.qna.answeringLlm(systemId, llmProviderId, options)).llmProviderId;
        const result = await dw.qna.answer(
          systemId,
          { questionText: question, llmProviderId: llm, filter: filterOfFields(filters) },
          options,
        );
        const citations = result.context.map((item, index) => ({
          index: index + 1,
          ...toPassage(systemId, item),
        }));
        return structured(
          { systemId, question, questionUuid: result.questionUuid, answer: result.answer, citations },
          resourceLinks(citations),
        );
      }),
  );
}
