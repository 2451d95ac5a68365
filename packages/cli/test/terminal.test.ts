import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, freshConfigDir } from './support/run-cli.js';
import { Terminal } from './support/terminal.js';

const orderStatus = seed.agents.orderStatus.agentId;

describe('in a terminal', () => {
  let emu: Emulator;
  let env: Record<string, string>;
  const terminals: Terminal[] = [];
  const open = (args: string[]) => {
    const terminal = new Terminal(args, env);
    terminals.push(terminal);
    return terminal;
  };
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, agentStepDelayMs: 400 });
    env = cliEnv(emu);
  });
  afterAll(async () => {
    for (const terminal of terminals) terminal.kill();
    await emu.close();
  });

  it('agents ask: a live status line with the step, then the answer, in colour', async () => {
    const terminal = open(['agents', 'ask', orderStatus, 'Where is order 1001?']);
    await terminal.waitFor(/Fetching order 1001 from the orders API/);
    await terminal.waitFor(/Order 1001 for Ada Lovelace/);
    expect(await terminal.exited).toBe(0);
    // The steps were one status line redrawn in place (a coloured spinner), not lines left behind.
    expect(terminal.bytes).toContain('\u001b[36m');
    const redraws = ['\u001b[2K', '\u001b[1G', '\u001b[G'];
    expect(redraws.some((sequence) => terminal.bytes.includes(sequence))).toBe(true);
    const lines = terminal.screen.split('\n').filter((line) => line.includes('Fetching order 1001'));
    expect(lines.length).toBeGreaterThan(0);
  });

  it('agents ask: Ctrl-C stops the run, closes its stream and exits 130', async () => {
    const terminal = open(['agents', 'ask', orderStatus, 'Where is order 1001?']);
    await terminal.waitFor(/Selected scenario/);
    expect(emu.openStreams).toBe(1);
    terminal.type('\u0003');
    expect(await terminal.exited).toBe(130);
    expect(terminal.screen).toContain('Interrupted.');
    await expect.poll(() => emu.openStreams).toBe(0);
  });

  it('agents chat: turns, a question answered at the prompt, Ctrl-C stops a turn, Ctrl-D leaves', async () => {
    const terminal = open(['agents', 'chat', orderStatus]);
    let at = await terminal.waitFor(/you › /);
    terminal.type('Where is my order?\r');
    at = await terminal.waitFor(/agent › Which order number do you mean\?/, at);
    at = await terminal.waitFor(/the agent asks back/, at);
    at = await terminal.waitFor(/you › /, at);
    terminal.type('It is 1002\r');
    at = await terminal.waitFor(/Fetching order 1002/, at);
    at = await terminal.waitFor(/agent › Order 1002 for Ada Lovelace/, at);
    at = await terminal.waitFor(/you › /, at);

    terminal.type('Where is order 1001?\r');
    at = await terminal.waitFor(/Selected scenario/, at);
    expect(emu.openStreams).toBe(1);
    terminal.type('\u0003');
    at = await terminal.waitFor(/\(stopped\)/, at);
    await expect.poll(() => emu.openStreams).toBe(0);
    at = await terminal.waitFor(/you › /, at);

    terminal.type('\u0004');
    expect(await terminal.exited).toBe(0);
  });

  it('a batch shows a progress bar with done / total, rate, ETA and failures', async () => {
    const dir = freshConfigDir();
    const input = join(dir, 'questions.txt');
    writeFileSync(input, Array.from({ length: 12 }, (_, i) => `How do I return item ${i}?`).join('\n'));
    emu.faults.add({ route: 'answerQnaQuestion', latencyMs: 150, times: 12 });
    const terminal = open([
      'qna',
      'answer',
      seed.systems.supportKb.systemId,
      '--batch',
      input,
      '--out',
      join(dir, 'answers.jsonl'),
      '--concurrency',
      '2',
    ]);
    await terminal.waitFor(/[░█]+ \d+\/12 \| [\d.]+\/s \| ETA \S+ \| 0 failed/);
    await terminal.waitFor(/Done: 12 answered, 0 failed, 0 skipped/);
    expect(await terminal.exited).toBe(0);

    // Run again with nothing left: one line says so, and no bar is drawn.
    const again = open([
      'qna',
      'answer',
      seed.systems.supportKb.systemId,
      '--batch',
      input,
      '--out',
      join(dir, 'answers.jsonl'),
    ]);
    expect(await again.exited).toBe(0);
    expect(again.screen.trim()).toBe(
      `Nothing to ask: all 12 questions are answered in ${join(dir, 'answers.jsonl')}.`,
    );
    expect(again.bytes).not.toMatch(/[░█]|\/0/);
  });
});
