import type { AgentCard } from '@dataworkz/client';
import { lastConversation, rememberConversation } from '../config/conversations.js';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { keyValues } from '../key-values.js';
import { terminalText } from '../terminal-text.js';
import { agentLlmOf, printFinal, runTurn } from './agent-turn.js';
import { interruptible } from './interrupt.js';

export async function list(ctx: Context): Promise<void> {
  const agents = await (await ctx.client()).agents.list();
  if (ctx.out.json) return ctx.out.printJson(agents);
  ctx.out.table(
    ['ID', 'NAME', 'DESCRIPTION'],
    agents.map((agent) => [agent.agentId, agent.name, agent.description ?? '']),
  );
}

export async function llms(ctx: Context): Promise<void> {
  const map = await (await ctx.client()).agents.llmProviders();
  if (ctx.out.json) return ctx.out.printJson(map);
  ctx.out.table(
    ['ID', 'NAME'],
    Object.entries(map).map(([id, name]) => [id, String(name)]),
  );
}

interface CardInterface {
  url?: string | undefined;
  protocolVersion?: string | undefined;
  protocolBinding?: string | undefined;
}

/** Where a card says the agent answers: v1.0 cards list `supportedInterfaces`, v0.3 cards name one `url`. */
function interfacesOf(card: AgentCard): CardInterface[] {
  const listed = (card as { supportedInterfaces?: unknown }).supportedInterfaces;
  if (Array.isArray(listed)) return listed as CardInterface[];
  return [{ url: card.url, protocolVersion: card.protocolVersion, protocolBinding: card.preferredTransport }];
}

export async function card(ctx: Context, agent: string): Promise<void> {
  const dw = await ctx.client();
  const agentCard = await dw.agents.card((await dw.agents.resolve(agent)).agentId);
  if (ctx.out.json) return ctx.out.printJson(agentCard);
  const { bold, dim } = ctx.out.colors;
  ctx.out.line(`${bold(terminalText(agentCard.name))} ${dim(`v${terminalText(agentCard.version)}`)}`);
  ctx.out.line(terminalText(agentCard.description));
  for (const { url, protocolVersion, protocolBinding } of interfacesOf(agentCard)) {
    ctx.out.line(
      terminalText(
        `${dim('endpoint')} ${url} ${dim(`(A2A ${protocolVersion}${protocolBinding ? `, ${protocolBinding}` : ''})`)}`,
      ),
    );
  }
  for (const skill of agentCard.skills ?? [])
    ctx.out.line(`${dim('skill')} ${terminalText(`${skill.name}: ${skill.description}`)}`);
  for (const extension of agentCard.capabilities?.extensions ?? [])
    ctx.out.line(`${dim('extension')} ${terminalText(extension.uri)}`);
}

export interface AskOptions {
  context?: string[];
  llm?: string;
  properties?: string[];
  continue?: boolean;
}

export async function ask(ctx: Context, agent: string, text: string, options: AskOptions): Promise<void> {
  const dw = await ctx.client();
  const { agentId } = await dw.agents.resolve(agent);
  const llmId = await agentLlmOf(dw, options.llm);
  const { name: profile } = await ctx.profile();
  const previous = options.continue ? await lastConversation(profile, agentId) : undefined;
  if (options.continue && !previous) {
    throw new UsageError(
      `There is no conversation with ${agentId} to continue; ask once without --continue.`,
    );
  }
  const final = await interruptible((signal) =>
    runTurn(ctx.out, dw, agentId, {
      text,
      contextValues: keyValues(options.context, '--context') as Record<string, never> | undefined,
      llmId,
      properties: keyValues(options.properties, '--properties') as Record<string, string> | undefined,
      contextId: previous?.contextId,
      taskId: previous?.taskId,
      signal,
    }),
  );
  if (final.contextId) {
    await rememberConversation(profile, agentId, {
      contextId: final.contextId,
      ...(final.state === 'input-required' && final.taskId ? { taskId: final.taskId } : {}),
    });
  }
  printFinal(ctx.out, final, `Reply with: dataworkz agents ask ${agentId} --continue "<your answer>"`);
}

export async function respond(
  ctx: Context,
  agent: string,
  text: string,
  options: { llm?: string },
): Promise<void> {
  const dw = await ctx.client();
  const { agentId } = await dw.agents.resolve(agent);
  let llmProviderId = await agentLlmOf(dw, options.llm);
  if (llmProviderId === undefined) {
    [llmProviderId] = Object.keys(await dw.agents.llmProviders());
    if (llmProviderId === undefined) throw new UsageError('The account lists no LLM; pass --llm.');
  }
  const response = await dw.agents.respond(agentId, { userText: text, llmProviderId });
  if (ctx.out.json) return ctx.out.printJson(response);
  ctx.out.line(terminalText(response.data.answer.trim()));
}
