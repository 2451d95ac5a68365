import { passageOf, retryAfterMs } from '@dataworkz/client';
import { agentLlmOf } from '../commands/agent-turn.js';
import { answerQuestion, llmOf, type RetrievalOptions, retrievalOf, searchSystem } from '../commands/qna.js';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { keyValues } from '../key-values.js';
import { AdaptiveLimit } from './adaptive-limit.js';
import { type BatchOptions, runBatch } from './run-batch.js';

/** The client, with every 429 it meets (any attempt of any call) lowering the batch's concurrency. */
async function batchClient(ctx: Context, options: BatchOptions) {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError('--concurrency must be a positive integer.');
  const limit = new AdaptiveLimit(concurrency);
  const dw = await ctx.client((response) => {
    if (response.status === 429) limit.pushedBack(retryAfterMs(response.headers) ?? 1000);
  });
  return { dw, limit };
}

export async function answerBatch(
  ctx: Context,
  system: string,
  options: RetrievalOptions & BatchOptions,
): Promise<number> {
  const { dw, limit } = await batchClient(ctx, options);
  const { systemId } = await dw.qna.resolve(system);
  const retrieval = await retrievalOf(options);
  // Chosen once for the whole batch: every answer comes from the same LLM.
  const llm = (await dw.qna.answeringLlm(systemId, options.llm)).llmProviderId;
  return runBatch(ctx.out, options, limit, async (question, call) => {
    const result = await answerQuestion(dw, systemId, question.text, { ...retrieval, llm }, call);
    return { answer: result.answer.trim(), contexts: result.context.map(passageOf), llmProviderId: llm };
  });
}

export async function searchBatch(
  ctx: Context,
  system: string,
  options: RetrievalOptions & BatchOptions,
): Promise<number> {
  const { dw, limit } = await batchClient(ctx, options);
  const { systemId } = await dw.qna.resolve(system);
  const retrieval = await llmOf(dw, systemId, await retrievalOf(options));
  return runBatch(ctx.out, options, limit, async (question, call) => {
    const result = await searchSystem(dw, systemId, question.text, retrieval, call);
    return { results: result.searchResultsList.map(passageOf) };
  });
}

export async function askBatch(
  ctx: Context,
  agent: string,
  options: BatchOptions & { context?: string[]; llm?: string; properties?: string[] },
): Promise<number> {
  const { dw, limit } = await batchClient(ctx, options);
  const { agentId } = await dw.agents.resolve(agent);
  const llmId = await agentLlmOf(dw, options.llm);
  const { streamAgent } = await import('@dataworkz/a2a');
  const contextValues = keyValues(options.context, '--context') as Record<string, never> | undefined;
  const properties = keyValues(options.properties, '--properties') as Record<string, string> | undefined;
  return runBatch(ctx.out, options, limit, async (question, call) => {
    // Each question is its own conversation.
    const run = streamAgent(dw, agentId, {
      text: question.text,
      contextValues,
      llmId,
      properties,
      signal: call.signal,
    });
    let steps = 0;
    for await (const event of run) {
      if (event.type === 'task-update') steps += 1;
      // A stream that broke and was got back over: each attempt to get back was a request.
      else if (event.type === 'resumed') call.retried(event.attempts);
    }
    const final = await run.finalAnswer();
    return {
      answer: final.answer.trim(),
      state: final.state,
      taskId: final.taskId,
      contextId: final.contextId,
      steps,
    };
  });
}
