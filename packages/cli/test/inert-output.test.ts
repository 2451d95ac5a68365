import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalText } from '../src/terminal-text.js';
import { cliEnv } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// Outputs a person opens: CSV cells a spreadsheet shows as text, terminal text with no control
// characters or escape sequences, whatever the service or a golden file holds.

const supportKb = seed.systems.supportKb;
const TITLE = '\u001b]0;owned\u0007';
const HOSTILE = `=HYPERLINK("http://evil.example","x")${TITLE}\u001b[2J\u009b31m\r`;
// Every escape or control a terminal acts on (ESC, BEL, C1, CR), as a pattern: none may reach a terminal.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters looked for.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminalText', () => {
  it('removes escape sequences and control characters, keeps text, line feeds and tabs', () => {
    expect(terminalText(`a${TITLE}b\u001b[31mred\u001b[0m\u0007\r\n\tc\u0085d\u202ee`)).toBe('abred\n\tcde');
    expect(terminalText('\u001b]52;c;aGVsbG8=\u001b\\x')).toBe('x');
  });
});

describe('outputs a person opens', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('qna eval: formula-like text cells start with a quote, numbers stay numbers, the terminal gets no escape', async () => {
    emu = await startEmulator({ port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'dataworkz-inert-'));
    const golden = join(dir, 'golden.jsonl');
    writeFileSync(
      golden,
      `${JSON.stringify({
        query_id: 'q1',
        question: '+When are refunds issued?',
        gt_answer: '-Within 5 business days.',
        gt_context: ['Refunds are issued to the original payment method within 5 business days.'],
        source: HOSTILE,
      })}\n`,
    );
    const out = join(dir, 'out');
    const run = await runInProcess(
      ['qna', 'eval', golden, '--system', supportKb.name, '--out', out],
      cliEnv(emu),
    );
    expect(run.code).toBe(0);

    const results: Record<string, string>[] = parse(readFileSync(join(out, 'results.csv'), 'utf8'), {
      columns: true,
    });
    expect(results[0]?.question).toBe("'+When are refunds issued?");
    expect(results[0]?.gt_answer).toBe("'-Within 5 business days.");
    expect(results[0]?.source).toBe(`'${HOSTILE}`);
    expect(results[0]?.context_recall).toMatch(/^[0-9.]+$/);
    const statsText = readFileSync(join(out, 'stats.csv'), 'utf8');
    const stats: Record<string, string>[] = parse(statsText, { columns: true });
    expect(stats[0]?.source).toBe(`'${HOSTILE}`);
    expect(Number.isFinite(Number(stats[0]?.context_recall))).toBe(true);

    // The summary in a pipe: a header row naming the columns, and the hostile source made inert.
    const [header, row] = run.stdout.trimEnd().split('\n');
    expect(header?.split('\t').slice(0, 4)).toEqual(['source', 'experiment', 'n', 'context_precision']);
    expect(row).toContain('=HYPERLINK("http://evil.example","x")');
    expect(run.stdout).not.toMatch(ACTIVE);
    expect(run.stderr).not.toMatch(ACTIVE);
    // Nobody asked for answer_similarity: nothing is said about it.
    expect(run.stderr).not.toContain('answer_similarity');
  });

  it('qna eval: a text cell that is only a number, as FinanceBench has, stays as it is', async () => {
    emu = await startEmulator({ port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'dataworkz-inert-'));
    const golden = join(dir, 'financebench.csv');
    // Rows in the form of the vendor's FinanceBench file, whose answers include `-0.02` and `-3.7`.
    writeFileSync(
      golden,
      [
        'query_id,question,gt_answer,gt_context,source',
        `q1,What is the quick ratio change?,-0.02,"['Refunds are issued within 5 business days.']",finance_bench`,
        `q2,What is the margin change?,+1.5e3,"['Refunds are issued within 5 business days.']",finance_bench`,
        `q3,What is the formula?,-1+2,"['Refunds are issued within 5 business days.']",finance_bench`,
        '',
      ].join('\n'),
    );
    const out = join(dir, 'out');
    const run = await runInProcess(
      ['qna', 'eval', golden, '--as-vendor', '--system', supportKb.name, '--out', out],
      cliEnv(emu),
    );
    expect(run.code).toBe(0);
    const results: Record<string, string>[] = parse(readFileSync(join(out, 'results.csv'), 'utf8'), {
      columns: true,
    });
    expect(results.map((row) => row.gt_answer)).toEqual(['-0.02', '+1.5e3', "'-1+2"]);

    // Scores as pandas writes floats in the harness's files: `0.0`, `1.0`, `1e-05`, never `0` or `0.00001`.
    const stats: Record<string, string>[] = parse(readFileSync(join(out, 'stats.csv'), 'utf8'), {
      columns: true,
    });
    const scores = [...results, ...stats].flatMap((row) =>
      Object.entries(row)
        .filter(
          ([column]) =>
            !['question', 'gt_answer', 'system_answer', 'source', 'experiment_name'].includes(column),
        )
        .map(([, cell]) => cell),
    );
    expect(scores.length).toBeGreaterThan(0);
    for (const cell of scores) expect(cell).toMatch(/^(?:\d+\.\d+|\d(?:\.\d+)?e[+-]\d{2,3})$/);
    expect(scores).toContain('0.0');
  });

  it('qna ask: an answer and sources carrying escape sequences print inert', async () => {
    emu = await startEmulator({ port: 0 });
    emu.faults.add({
      route: 'answerQnaQuestion',
      times: 1,
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        question: 'q',
        answer: `\n\nFive days.${TITLE}\u001b[8mhidden`,
        context: [
          {
            link: `s3a://bucket/a.md${TITLE}`,
            data: `Refunds ${TITLE}take five days.`,
            source: `docs\u001b[2J`,
          },
        ],
        systemId: supportKb.systemId,
        systemName: supportKb.name,
        type: 'qna',
        questionUuid: '00000000-0000-4000-8000-000000000000',
        status: 'COMPLETED',
      }),
    });
    const run = await runInProcess(
      ['qna', 'answer', supportKb.name, 'When are refunds issued?'],
      cliEnv(emu),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Five days.hidden');
    expect(run.stdout).toContain('Refunds take five days.');
    expect(run.stdout).not.toMatch(ACTIVE);
  });

  it('an error message quoting the service prints inert', async () => {
    emu = await startEmulator({ port: 0 });
    emu.faults.add({
      route: 'answerQnaQuestion',
      times: 1,
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ message: `bad question${TITLE}`, failureReason: `no\u001b[2Jreason` }),
    });
    const run = await runInProcess(['qna', 'answer', supportKb.name, 'When?'], cliEnv(emu));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Error:');
    expect(run.stderr).not.toMatch(ACTIVE);
  });
});
