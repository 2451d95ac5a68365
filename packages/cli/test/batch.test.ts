import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, cliEnv, freshConfigDir } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

const questions = [
  'How long do I have to return an item?',
  'What does the warranty cover?',
  'How do I pair the gateway?',
  'When are refunds issued?',
  'How do I clean the sensor kit?',
];

interface OutputLine {
  id: string;
  question: string;
  status: 'ok' | 'failed';
  answer?: string;
  contexts?: { link: string }[];
  results?: unknown[];
  error?: { name: string; status?: number };
  ms: number;
  attempts: number;
}

const readOutput = (file: string): OutputLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

describe('batch mode', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function setUp(options: Parameters<typeof startEmulator>[0] = {}) {
    emu = await startEmulator({ port: 0, ...options });
    const dir = freshConfigDir();
    const env = cliEnv(emu, dir);
    return { emu, dir, env };
  }

  const answerRequests = (server: Emulator) =>
    server.requests.filter((r) => r.path.endsWith('/answer')).length;

  it('answers every question of a JSONL file, one output line each with its answer, contexts and timing', async () => {
    const { emu, dir, env } = await setUp();
    const input = join(dir, 'questions.jsonl');
    writeFileSync(
      input,
      `${questions.map((question, i) => JSON.stringify({ id: `q${i}`, question })).join('\n')}\n`,
    );
    const out = join(dir, 'answers.jsonl');
    const result = await runInProcess(
      ['qna', 'answer', supportKb, '--batch', input, '--out', out, '--concurrency', '3'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Done: 5 answered, 0 failed, 0 skipped/);
    const lines = readOutput(out);
    expect(lines.map((line) => line.id).sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
    for (const line of lines) {
      expect(line.status).toBe('ok');
      expect(line.question).toBe(questions[Number(line.id.slice(1))]);
      expect(line.answer?.length).toBeGreaterThan(0);
      expect(line.contexts?.length).toBeGreaterThan(0);
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(line.attempts).toBe(1);
    }
    expect(answerRequests(emu)).toBe(5);
  });

  it('records a failed question and goes on; a rerun skips the answered ones and asks the failed one again', async () => {
    const { emu, dir, env } = await setUp();
    const input = join(dir, 'questions.txt');
    writeFileSync(input, `${questions.join('\n')}\n`);
    const out = join(dir, 'answers.jsonl');
    emu.faults.add({ route: 'answerQnaQuestion', status: 400, times: 1 });
    const first = await runInProcess(
      ['qna', 'answer', supportKb, '--batch', input, '--out', out, '--concurrency', '1'],
      env,
    );
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/4 answered, 1 failed/);
    const lines = readOutput(out);
    expect(lines).toHaveLength(5);
    const failed = lines.filter((line) => line.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toMatchObject({ name: 'BadRequestError', status: 400 });
    // Plain lines get ids from their line and text, the same on every run.
    expect(failed[0]?.id).toMatch(/^line-\d+-[0-9a-f]{8}$/);

    emu.clearRequests();
    const second = await runInProcess(['qna', 'answer', supportKb, '--batch', input, '--out', out], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/1 answered, 0 failed, 4 skipped/);
    expect(answerRequests(emu)).toBe(1);
    // One line per question, the latest: the failed line gave way to the answer.
    const all = readOutput(out);
    expect(all).toHaveLength(5);
    expect(all.every((line) => line.status === 'ok')).toBe(true);
    expect(new Set(all.map((line) => line.id)).size).toBe(5);
    expect(all.find((line) => line.id === failed[0]?.id)?.answer?.length).toBeGreaterThan(0);

    // A third run has nothing to ask: one line says so, no question is sent, the file stays as it is.
    emu.clearRequests();
    const before = readFileSync(out, 'utf8');
    const third = await runInProcess(['qna', 'answer', supportKb, '--batch', input, '--out', out], env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toBe(`Nothing to ask: all 5 questions are answered in ${out}.\n`);
    expect(answerRequests(emu)).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('counts every attempt the client made for a question, its retries included', async () => {
    const { emu, dir, env } = await setUp();
    const input = join(dir, 'questions.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'q0', question: questions[0] })}\n`);
    const out = join(dir, 'answers.jsonl');
    // Two refusals the client retries on its own, then the answer.
    emu.faults.add({ route: 'answerQnaQuestion', status: 503, times: 2 });
    const result = await runInProcess(['qna', 'answer', supportKb, '--batch', input, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(answerRequests(emu)).toBe(3);
    expect(readOutput(out)).toMatchObject([{ id: 'q0', status: 'ok', attempts: 3 }]);

    // A question that fails after the client's retries says how many it took too.
    writeFileSync(input, `${JSON.stringify({ id: 'q1', question: questions[1] })}\n`);
    emu.clearRequests();
    emu.faults.add({ route: 'answerQnaQuestion', status: 503, times: 3 });
    const failed = await runInProcess(['qna', 'answer', supportKb, '--batch', input, '--out', out], env);
    expect(failed.code).toBe(5);
    expect(answerRequests(emu)).toBe(3);
    expect(readOutput(out).find((line) => line.id === 'q1')).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('counts the requests an agent run made to get back to its task after its stream broke', async () => {
    const { emu, dir, env } = await setUp();
    const input = join(dir, 'orders.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'o1', question: 'Where is order 1001?' })}\n`);
    const out = join(dir, 'answers.jsonl');
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 2, times: 1 });
    const result = await runInProcess(['agents', 'ask', orderStatus, '--batch', input, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    const streams = emu.requests.filter((r) => r.path.endsWith('/stream')).length;
    expect(streams).toBe(2);
    expect(readOutput(out)).toMatchObject([{ id: 'o1', status: 'ok', attempts: 2 }]);
  });

  it('tidies an output a crash left: a line cut short is dropped, a question held twice keeps its last line', async () => {
    const { dir, env } = await setUp();
    const input = join(dir, 'questions.jsonl');
    writeFileSync(
      input,
      `${questions
        .slice(0, 3)
        .map((question, i) => JSON.stringify({ id: `q${i}`, question }))
        .join('\n')}\n`,
    );
    const out = join(dir, 'answers.jsonl');
    const line = (id: string, status: string, extra = {}) =>
      JSON.stringify({ id, status, ...extra, ms: 1, attempts: 1 });
    writeFileSync(
      out,
      `${line('q0', 'failed')}\n${line('q0', 'ok', { answer: 'kept' })}\n${line('q1', 'failed')}\n{"id":"q2","sta`,
    );
    const result = await runInProcess(['qna', 'answer', supportKb, '--batch', input, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/2 answered, 0 failed, 1 skipped/);
    const lines = readOutput(out);
    expect(lines.map((each) => [each.id, each.status])).toEqual([
      ['q0', 'ok'],
      ['q1', 'ok'],
      ['q2', 'ok'],
    ]);
    expect(lines[0]?.answer).toBe('kept');
    expect(readdirSync(dir).filter((name) => name.includes('answers.jsonl'))).toEqual(['answers.jsonl']);
  });

  it('resumes after Ctrl-C: nothing in flight is lost or answered twice', async () => {
    const { emu, dir, env } = await setUp();
    const many = Array.from({ length: 20 }, (_, i) => `${questions[i % questions.length]} (${i})`);
    const input = join(dir, 'questions.txt');
    writeFileSync(input, many.join('\n'));
    const out = join(dir, 'answers.jsonl');
    emu.faults.add({ route: 'answerQnaQuestion', latencyMs: 300, times: 1000 });
    const child = spawn(
      process.execPath,
      [bin, 'qna', 'answer', supportKb, '--batch', input, '--out', out, '--concurrency', '2'],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until(() => answerRequests(emu) >= 4, 'four questions asked');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const partial = readOutput(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(20);
    expect(partial.every((line) => line.status === 'ok')).toBe(true);

    emu.faults.clear();
    const rest = await runInProcess(
      ['qna', 'answer', supportKb, '--batch', input, '--out', out, '--concurrency', '4'],
      env,
    );
    expect(rest.code, rest.stderr).toBe(0);
    const all = readOutput(out);
    expect(all).toHaveLength(20);
    expect(new Set(all.map((line) => line.id)).size).toBe(20);
  });

  it('backs off when the service rate-limits: no question fails, and the service did push back', async () => {
    // A small bucket and the cheap ranking: the searches arrive faster than the rate even on a busy
    // machine, where unseen questions through the sentence encoder could pace them under it.
    const { emu, dir, env } = await setUp({
      embed: 'word-vectors',
      limits: { rateLimit: 10, rateLimitBurst: 2 },
    });
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, query: `${questions[i % 5]} ${i}` }));
    const input = join(dir, 'queries.jsonl');
    writeFileSync(input, many.map((item) => JSON.stringify(item)).join('\n'));
    const out = join(dir, 'results.jsonl');
    const result = await runInProcess(
      ['qna', 'search', supportKb, '--batch', input, '--out', out, '--concurrency', '8'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = readOutput(out);
    expect(lines).toHaveLength(30);
    expect(lines.every((line) => line.status === 'ok' && Array.isArray(line.results))).toBe(true);
    // More requests than questions: the refused ones were sent again after the advertised wait.
    const searches = emu.requests.filter((r) => r.path.endsWith('/search')).length;
    expect(searches).toBeGreaterThan(30);
  });

  it('asks an agent each question of a CSV file, and refuses --batch without --out or with a question', async () => {
    const { dir, env } = await setUp();
    const input = join(dir, 'orders.csv');
    writeFileSync(input, 'id,question\no1,Where is order 1001?\no2,"Where is order 1002, please?"\n');
    const out = join(dir, 'answers.jsonl');
    const result = await runInProcess(['agents', 'ask', orderStatus, '--batch', input, '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = readOutput(out) as (OutputLine & { state: string; steps: number })[];
    expect(lines.map((line) => [line.id, line.state]).sort()).toEqual([
      ['o1', 'completed'],
      ['o2', 'completed'],
    ]);
    expect(lines.find((line) => line.id === 'o2')?.answer).toMatch(/1002/);
    expect(lines.every((line) => line.steps > 0)).toBe(true);
    expect((await runInProcess(['agents', 'ask', orderStatus, '--batch', input], env)).code).toBe(2);
    expect(
      (await runInProcess(['agents', 'ask', orderStatus, 'hi', '--batch', input, '--out', out], env)).code,
    ).toBe(2);
    writeFileSync(join(dir, 'bad.jsonl'), '{"id":"x"}\n');
    const bad = await runInProcess(
      ['qna', 'answer', supportKb, '--batch', join(dir, 'bad.jsonl'), '--out', out],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.jsonl:1 has no question');
  });

  it('numbers a CSV question by the line it starts on, and says when the question file is missing', async () => {
    const { dir, env } = await setUp();
    const search = (file: string) =>
      runInProcess(
        ['qna', 'search', supportKb, '--batch', join(dir, file), '--out', join(dir, 'out.jsonl')],
        env,
      );
    // The first record spans lines 2 and 3, so the record without a question starts on line 4.
    writeFileSync(join(dir, 'multi.csv'), 'id,question\nm1,"How long do I have\nto return an item?"\nm2,\n');
    const multi = await search('multi.csv');
    expect([multi.code, multi.stderr]).toEqual([2, expect.stringContaining('multi.csv:4 has no question')]);
    for (const name of ['absent.csv', 'absent.jsonl', 'absent.txt']) {
      const missing = await search(name);
      expect([missing.code, missing.stderr]).toEqual([
        2,
        expect.stringContaining(`No question file ${join(dir, name)}.`),
      ]);
    }
  });
});
