import type { AgentEvent, FinalAnswer, StreamAgentOptions } from '@dataworkz/a2a';
import type { Dataworkz } from '@dataworkz/client';
import type { Output } from '../output.js';
import { terminalText } from '../terminal-text.js';

/** Shows what the agent is doing: a spinner whose text is the current step on a terminal, lines elsewhere. */
async function statusLine(out: Output): Promise<{ step(text: string): void; stop(): void }> {
  if (out.json) return { step: () => undefined, stop: () => undefined };
  if (!out.interactive) {
    return { step: (text) => out.error(out.colors.dim(`· ${terminalText(text)}`)), stop: () => undefined };
  }
  const { default: ora } = await import('ora');
  // discardStdin off: the chat's prompt owns standard input.
  const spinner = ora({ text: 'Sending…', stream: process.stderr, discardStdin: false }).start();
  return {
    step: (text) => {
      spinner.text = terminalText(text);
    },
    stop: () => spinner.stop(),
  };
}

/** `--llm` as an LLM id: given by id or by model name (any case) among the account's LLMs. */
export async function agentLlmOf(dw: Dataworkz, given: string | undefined): Promise<string | undefined> {
  return given === undefined ? undefined : (await dw.agents.resolveLlm(given)).llmProviderId;
}

/**
 * One turn with an agent over A2A: the status line follows the task updates, and with `--json` each
 * stream event is printed as the service sent it, one per line. Resolves with the final answer.
 */
export async function runTurn(
  out: Output,
  dw: Dataworkz,
  agentId: string,
  options: StreamAgentOptions,
): Promise<FinalAnswer> {
  const { streamAgent } = await import('@dataworkz/a2a');
  const status = await statusLine(out);
  let lastRaw: unknown;
  try {
    const run = streamAgent(dw, agentId, options);
    for await (const event of run as AsyncIterable<AgentEvent>) {
      // Several events can come from one stream event (its task updates); print that event once.
      if (out.json && event.raw !== undefined && event.raw !== lastRaw)
        process.stdout.write(`${JSON.stringify(event.raw)}\n`);
      lastRaw = event.raw;
      if (event.type === 'task-update') status.step(event.data.message ?? event.data.name ?? event.data.type);
      else if (event.type === 'resumed' && !out.json) {
        // The answer is whole; only the steps shown may have gaps.
        const seconds = (event.gapMs / 1000).toFixed(1);
        out.error(
          out.colors.yellow(
            `The connection broke; resumed after ${seconds} s (some steps may not be shown).`,
          ),
        );
      }
    }
    return await run.finalAnswer();
  } finally {
    status.stop();
  }
}

/** The answer, or the agent's question with how to reply, for a person. */
export function printFinal(out: Output, final: FinalAnswer, replyHint: string): void {
  if (out.json) return;
  if (final.state === 'input-required') {
    out.line(terminalText(final.answer.trim()));
    out.error(out.colors.yellow(`The agent asks back. ${replyHint}`));
    return;
  }
  out.line(terminalText(final.answer.trim()));
}
