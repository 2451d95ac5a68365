import { createInterface } from 'node:readline/promises';
import type { Context } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { keyValues } from '../key-values.js';
import { terminalText } from '../terminal-text.js';
import { agentLlmOf, runTurn } from './agent-turn.js';

/**
 * A conversation in the terminal: each line goes to the agent on the same conversation, its steps show
 * while it works, and a question back is answered at the next prompt (on the same task). Ctrl-C stops
 * the turn in progress and closes its stream; Ctrl-D (or Ctrl-C at an empty prompt) leaves.
 */
export async function chat(
  ctx: Context,
  agent: string,
  options: { context?: string[]; llm?: string },
): Promise<number> {
  const dw = await ctx.client();
  const { agentId, name } = await dw.agents.resolve(agent);
  const llmId = await agentLlmOf(dw, options.llm);
  const { bold, dim, cyan, yellow } = ctx.out.colors;
  const contextValues = keyValues(options.context, '--context') as Record<string, never> | undefined;
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: Boolean(process.stdin.isTTY),
  });
  let contextId: string | undefined;
  let taskId: string | undefined;
  let turn: AbortController | undefined;
  let closed = false;
  rl.on('SIGINT', () => {
    if (turn) turn.abort();
    else rl.close();
  });
  rl.on('close', () => {
    closed = true;
  });
  ctx.out.line(dim(`Chatting with ${name}. Ctrl-C stops an answer, Ctrl-D leaves.`));
  while (!closed) {
    let text: string;
    try {
      text = (await rl.question(bold('you › '))).trim();
    } catch {
      break; // the prompt was closed (Ctrl-D, or the end of piped input)
    }
    if (text === '') continue;
    turn = new AbortController();
    try {
      const final = await runTurn(ctx.out, dw, agentId, {
        text,
        contextValues,
        llmId,
        contextId,
        taskId,
        signal: turn.signal,
      });
      contextId = final.contextId ?? contextId;
      taskId = final.state === 'input-required' ? final.taskId : undefined;
      ctx.out.line(`${cyan('agent ›')} ${terminalText(final.answer.trim())}`);
      if (taskId) ctx.out.line(yellow('(the agent asks back: answer at the prompt)'));
    } catch (error) {
      if (turn.signal.aborted) ctx.out.line(dim('(stopped)'));
      else
        ctx.out.error(
          `${ctx.out.colors.red('Error:')} ${terminalText(error instanceof Error ? error.message : String(error))}`,
        );
    } finally {
      turn = undefined;
    }
  }
  rl.close();
  ctx.out.line();
  return ExitCode.ok;
}
