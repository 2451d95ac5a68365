import type { ToolContext } from './context.js';

/**
 * The id of the QnA system a tool call names by id or by exact name (any case), found with one
 * list call among the systems the server exposes; the others count as unknown, so their names
 * never appear among the close matches.
 */
export async function systemIdOf({ dw, exposure }: ToolContext, given: string, signal: AbortSignal) {
  const within = (await exposure()).systems;
  return (await dw.qna.resolve(given, { signal, within })).systemId;
}

/** The id of the agent a tool call names by id or by exact name (any case), among those exposed. */
export async function agentIdOf({ dw, exposure }: ToolContext, given: string, signal: AbortSignal) {
  const within = (await exposure()).agents;
  return (await dw.agents.resolve(given, { signal, within })).agentId;
}
