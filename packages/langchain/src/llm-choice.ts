import type { Dataworkz, RequestOptions } from '@dataworkz/client';

/** The LLM configuration to answer with: the one given (by id or model name), else the first the system lists. */
export async function answeringLlm(
  client: Dataworkz,
  systemId: string,
  given: string | undefined,
  options?: RequestOptions,
): Promise<string> {
  if (given !== undefined) return (await client.qna.resolveLlm(systemId, given, options)).llmProviderId;
  const first = Object.keys(await client.qna.llmProviders(systemId, options))[0];
  if (first === undefined) {
    throw new Error(`QnA system ${systemId} has no LLM configuration to answer with; pass llmProviderId.`);
  }
  return first;
}
