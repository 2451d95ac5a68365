import { Argument, Command, InvalidArgumentError } from 'commander';
import type { AskOptions } from './commands/agents.js';
import type { RetrievalOptions } from './commands/qna.js';
import type { Context, GlobalOptions } from './context.js';
import { UsageError } from './exit-codes.js';
import { collect } from './key-values.js';
import { cliVersion } from './version.js';

// Commands load their modules (and the clients) only when they run, so `--help` starts fast.
const qna = () => import('./commands/qna.js');
const agents = () => import('./commands/agents.js');
const config = () => import('./commands/config.js');
const batch = () => import('./batch/commands.js');
type BatchFlags = import('./batch/run-batch.js').BatchOptions;
const qnaEval = () => import('./commands/qna-eval.js');
type EvalFlags = import('./commands/qna-eval.js').EvalFlags;

// The context (profiles, the config file) loads with the first command that runs, not for `--help`.
async function contextOf(command: Command): Promise<Context> {
  const { Context } = await import('./context.js');
  return new Context(command.optsWithGlobals<GlobalOptions>());
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('Not a positive integer.');
  return number;
}

function confidenceLevel(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !(number > 0 && number < 1))
    throw new InvalidArgumentError('Not a number above 0 and below 1.');
  return number;
}

function nonNegativeNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0)
    throw new InvalidArgumentError('Not a number of 0 or more.');
  return number;
}

/** `--batch`, `--out` and `--concurrency`, for the commands that can ask many questions. */
function batchOptions(command: Command): Command {
  return command
    .option('--batch <file>', 'ask each question of a JSONL, CSV or plain-text file (one per line)')
    .option(
      '--out <file>',
      'with --batch: the JSONL file of results, one line per question (a rerun skips the answered ones)',
    )
    .option('--concurrency <n>', 'with --batch: requests in flight at most (default 4)', positiveInteger);
}

/** The one text of a command, or `--batch`: exactly one of them. */
function oneOrBatch(text: string | undefined, options: { batch?: string }, what: string): void {
  if (options.batch !== undefined && text !== undefined) {
    throw new UsageError(`Give the ${what} or --batch <file>, not both.`);
  }
  if (options.batch === undefined && text === undefined) {
    throw new UsageError(`Missing the ${what} (or --batch <file> to ask many).`);
  }
}

const agentArgument = 'the agent: its id, or its exact name (any case; quote a name with spaces)';
const systemArgument = 'the QnA system: its id, or its exact name (any case; quote a name with spaces)';
const agentLlmOption = 'the LLM to run the agent with: its id, or its model name as `agents llms` lists them';

/** Records what the command returned, for `main` to exit with. */
export interface ProgramResult {
  exitCode: number | undefined;
  /** The command that ran, its words from the program down, and its context: what a failure's hint reads. */
  command?: readonly string[];
  context?: Context;
}

/** Runs a command's work around something: its trace span when tracing is on. */
export type CommandRunner = (path: readonly string[], work: () => Promise<unknown>) => Promise<unknown>;

const direct: CommandRunner = (_path, work) => work();

/** The command's words from the program down, e.g. `dataworkz qna answer`. */
function pathOf(command: Command): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) path.unshift(at.name());
  return path;
}

export function buildProgram(result: ProgramResult, runner: CommandRunner = direct): Command {
  const program = new Command('dataworkz')
    .description('Try and script Dataworkz agents and QnA systems from the terminal.')
    .exitOverride()
    .version(cliVersion, '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for usage)')
    .option('--base-url <url>', 'the service address (default: DATAWORKZ_BASE_URL, then the profile)')
    .option(
      '-p, --profile <name>',
      'the configuration profile to use (default: DATAWORKZ_PROFILE, then the current one)',
    )
    .option('--json', 'print the service’s JSON, for scripts')
    .option('--debug', 'print the request log (credentials redacted) on stderr')
    .option('--no-color', 'plain text even on a terminal (NO_COLOR does the same)')
    .addHelpText(
      'after',
      '\nAgents and QnA systems are named by id or by exact name, in any case:\n  dataworkz qna answer "Customer Support Knowledge Base" "How do I return an item?"\n\nCredentials come from DATAWORKZ_API_KEY (or DATAWORKZ_TOKEN), else from the profile\n(`dataworkz config set api-key` reads the key from standard input).\n\nExit codes: 0 ok, 1 error, 2 usage or configuration (an ambiguous name, a wrong\nbase URL too), 3 authentication, 4 not found (an unknown id or name too), 5 failed\nquery or task, 6 network, 7 a metric below its baseline (qna eval), 8 no baseline\nrow for any experiment (qna eval), 130 interrupted.',
    );
  const run =
    // A command resolves with nothing (exit 0) or with its exit code.
      <A extends unknown[]>(work: (ctx: Context, ...args: A) => Promise<unknown>) =>
      async (...args: unknown[]) => {
        const command = args.at(-1) as Command;
        const path = pathOf(command);
        result.command = path;
        const ctx = await contextOf(command);
        result.context = ctx;
        const outcome = await runner(path, () => work(ctx, ...(args.slice(0, -1) as A)));
        if (typeof outcome === 'number') result.exitCode = outcome;
      };

  const agentsCommand = program
    .command('agents')
    .description('agents: list them, read their cards, ask them');
  agentsCommand
    .command('list')
    .description('list the agents of the account')
    .action(run(async (ctx) => (await agents()).list(ctx)));
  agentsCommand
    .command('llms')
    .description('list the LLMs agents can use')
    .action(run(async (ctx) => (await agents()).llms(ctx)));
  agentsCommand
    .command('card')
    .description("show an agent's A2A card")
    .argument('<agent>', agentArgument)
    .action(run(async (ctx, agent: string) => (await agents()).card(ctx, agent)));
  batchOptions(
    agentsCommand
      .command('ask')
      .description('ask an agent over A2A: its steps live, then its answer')
      .argument('<agent>', agentArgument)
      .argument('[text]', 'what to ask the agent (left out with --batch)')
      .option('-c, --context <key=value>', 'a context value (repeatable; JSON values allowed)', collect)
      .option('--llm <llm>', agentLlmOption)
      .option('--properties <key=value>', 'an execution property (repeatable)', collect)
      .option('--continue', 'continue the last conversation with this agent (and answer its question)'),
  ).action(
    run(async (ctx, agent: string, text: string | undefined, options: AskOptions & BatchFlags) => {
      oneOrBatch(text, options, 'text');
      if (options.batch !== undefined) return (await batch()).askBatch(ctx, agent, options);
      return (await agents()).ask(ctx, agent, text as string, options);
    }),
  );
  agentsCommand
    .command('chat')
    .description('chat with an agent: several turns, its questions answered at the prompt')
    .argument('<agent>', agentArgument)
    .option('-c, --context <key=value>', 'a context value for every turn (repeatable)', collect)
    .option('--llm <llm>', agentLlmOption)
    .action(
      run(async (ctx, agent: string, options: { context?: string[]; llm?: string }) =>
        (await import('./commands/chat.js')).chat(ctx, agent, options),
      ),
    );
  agentsCommand
    .command('respond')
    .description('ask an agent with the deprecated response call (prefer `agents ask`)')
    .argument('<agent>', agentArgument)
    .argument('<text>')
    .option('--llm <llm>', `${agentLlmOption} (default: the first the account lists)`)
    .action(
      run(async (ctx, agent: string, text: string, options: { llm?: string }) =>
        (await agents()).respond(ctx, agent, text, options),
      ),
    );

  const qnaCommand = program.command('qna').description('QnA systems: list, search, answer, documents');
  qnaCommand
    .command('list')
    // `systems` was its first name; both stay.
    .alias('systems')
    .description('list the QnA systems')
    .action(run(async (ctx) => (await qna()).systems(ctx)));
  qnaCommand
    .command('get')
    .description("show a QnA system's details")
    .argument('<system>', systemArgument)
    .action(run(async (ctx, system: string) => (await qna()).get(ctx, system)));
  qnaCommand
    .command('llms')
    .description('list the LLMs a QnA system answers with')
    .argument('<system>', systemArgument)
    .action(run(async (ctx, system: string) => (await qna()).llms(ctx, system)));
  qnaCommand
    .command('filters')
    .description('list the metadata fields a QnA system filters on')
    .argument('<system>', systemArgument)
    .action(run(async (ctx, system: string) => (await qna()).filters(ctx, system)));
  const retrieval = (command: Command) =>
    command
      .option(
        '-w, --where <field=v1,v2>',
        'keep passages whose field has one of the values (repeatable)',
        collect,
      )
      .option('--filter <expression>', 'a raw filter expression, e.g. "topic in (\'returns\')"')
      .option('--properties <key=value>', 'a search property (repeatable)', collect)
      .option(
        '--llm <llm>',
        'the LLM: its id or model name, as `qna llms` lists them (answer: default the first the system lists)',
      );
  batchOptions(
    retrieval(
      qnaCommand
        .command('search')
        .description('search a QnA system: the matching passages, best first')
        .argument('<system>', systemArgument)
        .argument('[query]', 'what to search for (left out with --batch)')
        .option('-n, --limit <count>', 'show at most this many passages', positiveInteger),
    ),
  ).action(
    run(async (ctx, system: string, query: string | undefined, options: RetrievalOptions & BatchFlags) => {
      oneOrBatch(query, options, 'query');
      if (options.batch !== undefined) return (await batch()).searchBatch(ctx, system, options);
      return (await qna()).search(ctx, system, query as string, options);
    }),
  );
  batchOptions(
    retrieval(
      qnaCommand
        .command('answer')
        .description('ask a QnA system: its answer, with the sources it cites')
        .argument('<system>', systemArgument)
        .argument('[question]', 'the question (left out with --batch)'),
    ),
  ).action(
    run(async (ctx, system: string, question: string | undefined, options: RetrievalOptions & BatchFlags) => {
      oneOrBatch(question, options, 'question');
      if (options.batch !== undefined) return (await batch()).answerBatch(ctx, system, options);
      return (await qna()).answer(ctx, system, question as string, options);
    }),
  );
  qnaCommand
    .command('eval')
    .description('evaluate QnA systems on a golden set: retrieval and answer scores, CSVs and an HTML report')
    .argument('<golden>', 'the golden set: FinanceBench or LegalBench CSV, or JSONL with the same fields')
    .requiredOption(
      '--system <system>',
      'a QnA system to evaluate, by id or exact name (repeatable)',
      collect,
    )
    .option(
      '--llm <llm>',
      'an LLM each system answers with, by id or model name (repeatable; default its first)',
      collect,
    )
    .requiredOption(
      '--out <dir>',
      'the folder for results.csv, results.jsonl, stats.csv, summary.md, report.html (a rerun resumes)',
    )
    .option('-n, --limit <count>', 'only the first rows of the golden set', positiveInteger)
    .option('--concurrency <n>', 'questions in flight at most (default 4)', positiveInteger)
    .option('--strict', 'refuse a malformed golden row instead of skipping it')
    .option(
      '--similarity',
      'also score answer_similarity with the sentence encoder, where installed (~0.1 s per answer)',
    )
    .option(
      '--baseline <file>',
      'a results.csv (compared question by question) or stats.csv (mean against mean): exit 7 on a regression, 8 when nothing matches',
    )
    .option('--max-drop <drop>', 'with --baseline: the drop allowed (default 0.05)', nonNegativeNumber)
    .option(
      '--confidence <c>',
      'with a results.csv baseline: the confidence of the interval a drop must lie outside (default 0.95)',
      confidenceLevel,
    )
    .option(
      '--repeat <n>',
      'ask each question n times; its score is the mean of its answers (default 1)',
      positiveInteger,
    )
    .option(
      '--as-vendor',
      "score as the vendor's Python harness calls continuous-eval (the raw gt_context string, not its passages), for figures next to a published run",
    )
    .addHelpText(
      'after',
      '\nThe summary: source, experiment, n (questions scored), then the mean of each metric named in its header;\nresults.csv and stats.csv hold every metric.',
    )
    .action(
      run(async (ctx, golden: string, options: EvalFlags) =>
        (await qnaEval()).evaluate(ctx, golden, options),
      ),
    );
  qnaCommand
    .command('document')
    .description('download a document: by the id a search or an answer prints under each result')
    .argument('<system>', systemArgument)
    .argument('<document>', 'a document id, or a document link (…/document?documentId=<id>)')
    .option('-o, --output <file>', 'write to this file (default: standard output)')
    .action(
      run(async (ctx, system: string, reference: string, options: { output?: string }) =>
        (await qna()).document(ctx, system, reference, options),
      ),
    );

  const configCommand = program
    .command('config')
    .description('profiles: where the CLI connects, and with which credential');
  configCommand
    .command('set')
    .description('set base-url, or api-key / token (read from standard input, never an argument)')
    .argument('<setting>', 'base-url, api-key or token')
    .argument('[value]')
    .action(
      run(async (ctx, name: string, value: string | undefined) => (await config()).set(ctx, name, value)),
    );
  configCommand
    .command('get')
    .description('print a setting (keys and tokens masked)')
    .argument('<setting>')
    .action(run(async (ctx, name: string) => (await config()).get(ctx, name)));
  configCommand
    .command('list')
    .description('list the profiles')
    .action(run(async (ctx) => (await config()).list(ctx)));
  configCommand
    .command('use')
    .description('make a profile the current one')
    .argument('<profile>')
    .action(run(async (ctx, profile: string) => (await config()).use(ctx, profile)));

  program
    .command('emulator')
    .description('run the local emulator of the service, and print the lines that point the CLI at it')
    // Its flags, defaults and help are the emulator's own (`dataworkz-emulator`): it reads them itself.
    .helpOption(false)
    .allowUnknownOption()
    .argument('[flags...]', 'the flags of dataworkz-emulator: `dataworkz emulator --help` lists them')
    .action(
      run(async (ctx, flags: string[]) => (await import('./commands/emulator.js')).emulator(ctx, flags)),
    );

  program
    .command('completion')
    .description('print the shell completion script: eval "$(dataworkz completion bash)"')
    .addArgument(new Argument('<shell>').choices(['bash', 'zsh', 'fish']))
    .action(
      run(async (ctx, shell: 'bash' | 'zsh' | 'fish') => {
        const { completionScript } = await import('./completion.js');
        const { emulatorFlags } = await import('@dataworkz/emulator/cli');
        ctx.out.line(completionScript(program, shell, { emulator: emulatorFlags }));
      }),
    );
  return program;
}
