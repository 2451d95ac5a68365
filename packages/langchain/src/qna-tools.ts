import type { Dataworkz, FilterExpression } from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import type { Document } from '@langchain/core/documents';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { type PassageMetadata, toPassageDocument } from './documents.js';
import { passagesText } from './passages-text.js';

/** One QnA system as a tool; the model only writes the query or question. */
export interface QnaToolOptions {
  /** The QnA system the tool searches or asks: its id, or its exact name (any case), resolved on first use. */
  systemId: string;
  /** The tool's name, unique among the model's tools (letters, digits, `_` and `-`). */
  name?: string | undefined;
  /** What the system holds, so the model knows when to use it. */
  description?: string | undefined;
  /** A metadata filter every call applies, built with the client's `filter`. */
  filter?: FilterExpression | string | undefined;
}

export interface SearchToolOptions extends QnaToolOptions {
  /** Return at most this many passages. Default 5. */
  maxResults?: number | undefined;
}

export interface AnswerToolOptions extends QnaToolOptions {
  /**
   * The LLM configuration to answer with: its id, or its model name (any case), resolved on first use.
   * Default: the first the system lists.
   */
  llmProviderId?: string | undefined;
}

/** What the answer tool returns as its artifact (the model reads the text; the application gets this). */
export interface AnswerArtifact {
  answer: string;
  /** The passages the answer was written from; `[n]` in the answer cites `citations[n-1]`. */
  citations: Document<PassageMetadata>[];
}

const searchSchema = z.object({ query: z.string().min(1).describe('What to search for.') });
const answerSchema = z.object({ question: z.string().min(1).describe('The question, in full.') });

function checkSystem(options: QnaToolOptions, what: string): void {
  if (typeof options?.systemId !== 'string' || options.systemId === '') {
    throw new TypeError(`${what} needs { systemId }: the QnA system it uses.`);
  }
}

/**
 * Semantic search in a QnA system as a LangChain tool. The model reads numbered passages with their
 * links; the tool message's `artifact` holds them as `Document`s.
 */
export function dataworkzSearchTool(client: Dataworkz, options: SearchToolOptions) {
  checkSystem(options, 'dataworkzSearchTool');
  const { systemId: given, filter } = options;
  const maxResults = options.maxResults ?? 5;
  const systemIdOf = resolveOnce(async () => (await client.qna.resolve(given)).systemId);
  return tool(
    async ({ query }, config): Promise<[string, Document<PassageMetadata>[]]> => {
      const systemId = await systemIdOf();
      const result = await client.qna.search(systemId, { query, filter }, { signal: config?.signal });
      const documents = result.searchResultsList
        .slice(0, maxResults)
        .map((item) => toPassageDocument(item, systemId));
      return [passagesText(documents), documents];
    },
    {
      name: options.name ?? 'dataworkz_search',
      description:
        options.description ??
        `Searches the Dataworkz QnA system ${given}: the passages matching the query, best first, with their links.`,
      schema: searchSchema,
      responseFormat: 'content_and_artifact',
    },
  );
}

/**
 * A question to a QnA system as a LangChain tool: the model reads the system's answer and its sources;
 * the tool message's `artifact` is an `AnswerArtifact`.
 */
export function dataworkzAnswerTool(client: Dataworkz, options: AnswerToolOptions) {
  checkSystem(options, 'dataworkzAnswerTool');
  const { systemId: given, filter } = options;
  const resolved = resolveOnce(async () => {
    const systemId = (await client.qna.resolve(given)).systemId;
    return {
      systemId,
      llmProviderId: (await client.qna.answeringLlm(systemId, options.llmProviderId)).llmProviderId,
    };
  });
  return tool(
    async ({ question }, config): Promise<[string, AnswerArtifact]> => {
      const request = { signal: config?.signal };
      const { systemId, llmProviderId } = await resolved();
      const result = await client.qna.answer(
        systemId,
        { questionText: question, llmProviderId, filter },
        request,
      );
      const citations = result.context.map((item) => toPassageDocument(item, systemId));
      const text =
        citations.length === 0 ? result.answer : `${result.answer}\n\nSources:\n${passagesText(citations)}`;
      return [text, { answer: result.answer, citations }];
    },
    {
      name: options.name ?? 'dataworkz_answer',
      description:
        options.description ??
        `Asks the Dataworkz QnA system ${given} a question: its answer, written from its documents, and the passages it used ([n] marks cite them).`,
      schema: answerSchema,
      responseFormat: 'content_and_artifact',
    },
  );
}
