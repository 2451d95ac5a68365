import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { runToExit } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { degradedAnswers } from './support/degraded-answers.js';
import { bin } from './support/run-cli.js';

// The workflow the docs' "Evaluate in CI" page gives a team, checked by GitHub's own parser, and its
// shell steps run as a runner runs them (bash -eo pipefail, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// RUNNER_TEMP) in a git repository whose origin holds main, against the emulator. The `uses:` steps
// (checkout, setup-node, upload-artifact) are GitHub's; the comment script runs against a stand-in
// for the GitHub API, since there is no pull request to comment on here.

const workflowFile = fileURLToPath(new URL('../../../apps/docs/examples/qna-eval.yml', import.meta.url));
const goldenFile = fileURLToPath(new URL('../../../apps/docs/public/eval/golden.csv', import.meta.url));
const workflowText = readFileSync(workflowFile, 'utf8');

interface StepDef {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: StepDef[] }>;
}
const workflow = parseYaml(workflowText) as Workflow;

interface JobRun {
  /** The exit code of the step that failed the job, or 0. */
  code: number;
  /** What each step printed, by name. */
  output: Map<string, { stdout: string; stderr: string }>;
  summary: string;
  skipped: string[];
  /** Steps with `uses:`, and whether their condition held. */
  actions: { name: string; ran: boolean }[];
  workspace: string;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const result = await runToExit('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
  });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/**
 * The conditions the workflow uses, evaluated as Actions does; any other throws, so a changed
 * workflow changes this test with it.
 */
function holds(
  condition: string | undefined,
  outputs: Map<string, Record<string, string>>,
  failed: boolean,
  workspace: string,
): boolean {
  if (condition === undefined) return !failed;
  let always = false;
  const terms = condition.split('&&').map((term) => term.trim());
  const each = terms.map((term) => {
    if (term === 'always()') {
      always = true;
      return true;
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+) == '([^']*)'$/.exec(term);
    if (output) return outputs.get(output[1] as string)?.[output[2] as string] === output[3];
    const hash = /^hashFiles\('([^']+)'\) != ''$/.exec(term);
    if (hash) return existsSync(join(workspace, hash[1] as string));
    throw new Error(`A condition this test cannot evaluate: ${term}`);
  });
  return each.every(Boolean) && (always || !failed);
}

async function runJob(jobId: string, workspace: string, values: Record<string, string>): Promise<JobRun> {
  const job = workflow.jobs[jobId];
  if (!job) throw new Error(`No job ${jobId}`);
  const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'));
  const summaryFile = join(temp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const shims = mkdtempSync(join(tmpdir(), 'shims-'));
  // `npm install --global @dataworkz/cli`, made with this checkout's build instead of the registry.
  writeFileSync(join(shims, 'dataworkz'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(shims, 'dataworkz'), 0o755);
  const outputs = new Map<string, Record<string, string>>();
  const run: JobRun = { code: 0, output: new Map(), summary: '', skipped: [], actions: [], workspace };
  let failed = false;
  for (const [i, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${i}`;
    const go = holds(step.if, outputs, failed, workspace);
    if (step.uses) {
      run.actions.push({ name, ran: go });
      continue;
    }
    if (!go) {
      run.skipped.push(name);
      continue;
    }
    const script = step.run ?? '';
    if (script.trim() === 'npm install --global @dataworkz/cli') continue;
    const env: NodeJS.ProcessEnv = {
      PATH: `${shims}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? temp,
      RUNNER_TEMP: temp,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...workflow.env,
    };
    for (const [variable, value] of Object.entries(step.env ?? {})) {
      const expression = /^\$\{\{ ([^}]+) \}\}$/.exec(value)?.[1];
      if (expression === undefined) env[variable] = value;
      else if (expression in values) env[variable] = values[expression];
      else throw new Error(`The test gives no value for ${expression}`);
    }
    const outputFile = join(temp, `output-${i}`);
    writeFileSync(outputFile, '');
    env.GITHUB_OUTPUT = outputFile;
    const scriptFile = join(temp, `step-${i}.sh`);
    writeFileSync(scriptFile, script);
    const result = await runToExit('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
      cwd: workspace,
      env,
    });
    run.output.set(name, { stdout: result.stdout, stderr: result.stderr });
    if (step.id) {
      const lines = readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='));
      outputs.set(
        step.id,
        Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        ),
      );
    }
    if (result.code !== 0 && !failed) {
      failed = true;
      // A step killed by a signal fails the job as a non-zero exit does.
      run.code = result.code ?? 1;
    }
  }
  run.summary = readFileSync(summaryFile, 'utf8');
  return run;
}

describe('the workflow of "Evaluate in CI"', () => {
  let emu: Emulator;
  let origin: string;
  let values: Record<string, string>;

  /** A pull request's workspace: a clone of origin on a branch, as actions/checkout leaves it. */
  async function pullRequest(): Promise<string> {
    const workspace = join(mkdtempSync(join(tmpdir(), 'pr-')), 'repo');
    await git(dirname(workspace), 'clone', '--quiet', origin, workspace);
    await git(workspace, 'checkout', '--quiet', '-b', 'feature');
    return workspace;
  }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, embed: false });
    values = {
      'secrets.DATAWORKZ_API_KEY': emu.apiKey,
      'vars.DATAWORKZ_BASE_URL': emu.url,
      'github.base_ref': 'main',
    };
    const root = mkdtempSync(join(tmpdir(), 'team-repo-'));
    origin = join(root, 'origin.git');
    await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
    const main = join(root, 'main');
    await git(root, 'clone', '--quiet', origin, main);
    await git(main, 'checkout', '--quiet', '-b', 'main');
    mkdirSync(join(main, 'evaluation'), { recursive: true });
    mkdirSync(join(main, '.github', 'workflows'), { recursive: true });
    copyFileSync(goldenFile, join(main, 'evaluation', 'golden.csv'));
    copyFileSync(workflowFile, join(main, '.github', 'workflows', 'qna-eval.yml'));
    await git(main, 'add', '.');
    await git(main, 'commit', '--quiet', '-m', 'evaluation: the golden set and the gate');
    await git(main, 'push', '--quiet', 'origin', 'main');
  });
  afterAll(async () => {
    await emu.close();
  });

  it('needs Vite to load the parser: plain Node refuses its JSON import (vitest.config.ts inlines it)', async () => {
    // When this fails, the parser imports its schema as Node accepts: drop the inlining.
    const plain = await runToExit(
      process.execPath,
      ['--input-type=module', '-e', "await import('@actions/workflow-parser')"],
      { cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    expect(plain.code).not.toBe(0);
    // Node 20 names it ERR_IMPORT_ASSERTION_TYPE_MISSING, Node 22 and later ERR_IMPORT_ATTRIBUTE_MISSING.
    expect(plain.stderr).toMatch(/ERR_IMPORT_(ASSERTION_TYPE|ATTRIBUTE)_MISSING/);
  });

  it("passes GitHub's workflow parser, which refuses a broken one", async () => {
    const parsed = parseWorkflow(
      { name: 'qna-eval.yml', content: workflowText },
      new NoOperationTraceWriter(),
    );
    expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual([]);
    const template = await convertWorkflowTemplate(
      parsed.context,
      parsed.value as NonNullable<typeof parsed.value>,
    );
    expect(template.errors ?? []).toEqual([]);
    expect(template.jobs.map((job) => job.id.value)).toEqual(['gate', 'refresh-baseline']);
    const broken = parseWorkflow(
      {
        name: 'broken.yml',
        content: workflowText.replace('    runs-on: ubuntu-latest\n', '    runs_on: ubuntu-latest\n'),
      },
      new NoOperationTraceWriter(),
    );
    expect(broken.context.errors.getErrors().length).toBeGreaterThan(0);
  });

  it('fails a pull request made before main has a baseline, saying how to make one', async () => {
    const job = await runJob('gate', await pullRequest(), values);
    expect(job.code).toBe(1);
    expect(job.output.get('Read the baseline from the base branch')?.stdout).toContain(
      '::error::main has no evaluation/baseline/results.csv: run this workflow on main (Run workflow) to commit one.',
    );
    expect(job.skipped).toEqual(['Evaluate']);
  });

  it('refreshes the baseline on main: the results committed and pushed', async () => {
    const main = join(mkdtempSync(join(tmpdir(), 'main-')), 'repo');
    await git(dirname(main), 'clone', '--quiet', origin, main);
    const job = await runJob('refresh-baseline', main, values);
    expect(job.code).toBe(0);
    expect(job.summary).toContain('## QnA evaluation: golden.csv');
    const log = await git(origin, 'log', '--format=%s%n%an', 'main');
    expect(log.split('\n').slice(0, 2)).toEqual([
      'evaluation: refresh the QnA baseline',
      'github-actions[bot]',
    ]);
    const baseline = await git(origin, 'show', 'main:evaluation/baseline/results.csv');
    expect(baseline.split('\n')[0]).toMatch(
      /^question,gt_answer,system_answer,source,experiment_name,repetition,/,
    );
    // 6 questions, 3 answers each.
    expect(baseline.match(/Customer Support Knowledge Base,[123],/g)).toHaveLength(18);
  });

  it('passes a clean pull request, the comparison in the summary and one comment', async () => {
    const job = await runJob('gate', await pullRequest(), values);
    expect(job.code).toBe(0);
    expect(job.summary).toContain('**No regression**');
    expect(job.summary).toContain(
      '| experiment | source | metric | baseline | now | difference | 95 % interval | verdict | dropped most |',
    );
    expect(job.output.get('Evaluate')?.stderr).toContain('No regression.');
    expect(job.actions).toEqual([
      { name: 'actions/checkout@v4', ran: true },
      { name: 'actions/setup-node@v4', ran: true },
      { name: 'Upload the run folder', ran: true },
      { name: 'Comment on the pull request', ran: true },
    ]);
    // The comment step's script, against a stand-in API: a comment of its own already there is edited.
    const script =
      workflow.jobs.gate?.steps.find((step) => step.name === 'Comment on the pull request')?.with?.script ??
      '';
    const calls: string[] = [];
    const github = {
      paginate: async () => [
        { id: 1, user: { type: 'User' }, body: 'Looks good' },
        { id: 2, user: { type: 'Bot' }, body: '<!-- dataworkz-qna-eval -->\nearlier' },
      ],
      rest: {
        issues: {
          listComments: () => undefined,
          updateComment: async (args: { comment_id: number; body: string }) =>
            calls.push(`update ${args.comment_id} ${args.body.length}`),
          createComment: async () => calls.push('create'),
        },
      },
    };
    const context = { repo: { owner: 'team', repo: 'kb' }, issue: { number: 7 } };
    const requireFrom = (id: string) => {
      if (id !== 'node:fs') throw new Error(`unexpected require ${id}`);
      return {
        readFileSync: (file: string, encoding: 'utf8') => readFileSync(join(job.workspace, file), encoding),
      };
    };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    await new AsyncFunction('require', 'github', 'context', script)(requireFrom, github, context);
    const summary = readFileSync(join(job.workspace, 'qna-eval', 'summary.md'), 'utf8');
    expect(calls).toEqual([`update 2 ${'<!-- dataworkz-qna-eval -->\n'.length + summary.length}`]);
    // A summary past what a comment holds is cut, with a word on where the rest is.
    writeFileSync(join(job.workspace, 'qna-eval', 'summary.md'), 'x'.repeat(70_000));
    calls.length = 0;
    await new AsyncFunction('require', 'github', 'context', script)(requireFrom, github, context);
    const note = '\n\n(Cut here: the whole summary is in the job summary and the qna-eval artifact.)';
    expect(calls).toEqual([`update 2 ${'<!-- dataworkz-qna-eval -->\n'.length + 60_000 + note.length}`]);
  });

  it('fails a pull request whose answers got worse (exit 7), saying why in the log and the summary', async () => {
    emu.faults.add(degradedAnswers(18));
    const job = await runJob('gate', await pullRequest(), values);
    expect(job.code).toBe(7);
    const evaluate = job.output.get('Evaluate');
    expect(evaluate?.stdout).toContain(
      '::error::A metric regressed against the baseline of the base branch: see the job summary.',
    );
    expect(evaluate?.stderr).toMatch(
      /Regression: context_recall of Customer Support Knowledge Base \(support\) is 0\.0000, baseline 1\.0000: a drop of 1\.0000, 95 % interval \[-1\.0000, -1\.0000\] over 6 questions\./,
    );
    expect(job.summary).toMatch(/\*\*Regressed\*\*: \d+ metrics of 1 experiment fell below the baseline\./);
    // The run folder and the comment still go out after the failed step.
    expect(job.actions.filter((action) => action.ran).map((action) => action.name)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'Upload the run folder',
      'Comment on the pull request',
    ]);
  });

  it('skips a fork pull request without secrets, saying so in the summary', async () => {
    const job = await runJob('gate', await pullRequest(), { ...values, 'secrets.DATAWORKZ_API_KEY': '' });
    expect(job.code).toBe(0);
    expect(job.summary).toContain('## QnA evaluation skipped');
    expect(job.output.get('Check for the credentials')?.stdout).toContain('::warning::No DATAWORKZ_API_KEY');
    expect(job.skipped).toEqual(['Read the baseline from the base branch', 'Evaluate']);
    expect(job.actions.filter((action) => action.ran).map((action) => action.name)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
    ]);
  });

  it('fails a pull request whose system was renamed since the baseline (exit 8): nothing judged is no pass', async () => {
    const main = join(mkdtempSync(join(tmpdir(), 'main-')), 'repo');
    await git(dirname(main), 'clone', '--quiet', origin, main);
    const file = join(main, 'evaluation', 'baseline', 'results.csv');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll(
        ',Customer Support Knowledge Base,',
        ',Customer Support KB (old name),',
      ),
    );
    await git(main, 'commit', '--quiet', '-am', 'evaluation: the baseline of the old name');
    await git(main, 'push', '--quiet', 'origin', 'main');
    const job = await runJob('gate', await pullRequest(), values);
    expect(job.code).toBe(8);
    const evaluate = job.output.get('Evaluate');
    expect(evaluate?.stdout).toContain(
      '::error::No experiment has a row in the baseline (a renamed system, another --llm): nothing was judged.',
    );
    expect(evaluate?.stderr).toContain(
      'Not judged, not in the baseline (or no question in common): Customer Support Knowledge Base (support).',
    );
    expect(evaluate?.stderr).toContain(
      'In the baseline but not in this run: Customer Support KB (old name) (support).',
    );
    expect(job.summary).toContain('**No comparison**: no experiment of this run has a row in the baseline.');
  });
});
