import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import type { Output } from './output.js';
import { terminalText } from './terminal-text.js';

interface ErrorFacts {
  name: string;
  message: string;
  status?: number;
  requestId?: string;
  failureReason?: string;
  /** An UnknownNameError's kind: `QnA system`, `agent` or `LLM`. */
  kind?: string;
}

function factsOf(error: unknown): ErrorFacts {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { status, requestId, failureReason, kind } = error as Error & Partial<ErrorFacts>;
  return {
    name: error.name,
    message: error.message,
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(typeof failureReason === 'string' ? { failureReason } : {}),
    ...(typeof kind === 'string' ? { kind } : {}),
  };
}

/** What the CLI knows of the command that failed, so the hint fits it. */
export interface FailureScene {
  /** The command's words from the program down, e.g. `['dataworkz', 'qna', 'list']`. */
  command?: readonly string[] | undefined;
  /** The service address the client was made with, and where it came from. */
  baseUrl?: { url: string; from: string } | undefined;
  /** The last URL the service answered 404 to. */
  notFoundUrl?: string | undefined;
}

// By the error's name, not its class: the clients load only when a command needs them.
const byName: Record<string, [ExitCodeValue, string | undefined]> = {
  UsageError: [ExitCode.usage, undefined],
  GoldenFileError: [ExitCode.usage, undefined],
  InvalidParameterError: [ExitCode.usage, 'See `dataworkz <command> --help`.'],
  AuthenticationError: [
    ExitCode.auth,
    'Check the key: DATAWORKZ_API_KEY (or DATAWORKZ_TOKEN), or `dataworkz config set api-key`.',
  ],
  PermissionDeniedError: [ExitCode.auth, 'The credential works but may not do this; ask an account admin.'],
  NotFoundError: [ExitCode.notFound, undefined],
  UnknownNameError: [ExitCode.notFound, undefined],
  AmbiguousNameError: [ExitCode.usage, undefined],
  NoAnsweringLlmError: [ExitCode.usage, undefined],
  QueryFailedError: [ExitCode.failed, undefined],
  TaskFailedError: [ExitCode.failed, undefined],
  APIConnectionError: [
    ExitCode.network,
    'Check --base-url (or DATAWORKZ_BASE_URL) and that the service is reachable.',
  ],
  APIConnectionTimeoutError: [ExitCode.network, 'The service did not answer in time; try again.'],
  RateLimitError: [ExitCode.error, 'The service is limiting requests; wait a moment and try again.'],
  APIUserAbortError: [ExitCode.interrupted, undefined],
  AbortError: [ExitCode.interrupted, undefined],
};

// The endpoints that take no id: every deployment answers them, so a 404 there means the address is wrong.
const rootPaths = [
  '/api/qna/v1/systems',
  '/api/agents/v1/',
  '/api/agents/v1',
  '/api/agents/v1/llm-providers',
];

/** Whether a 404 came from one of the API's own fixed paths, which the service always has. */
function isRootPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  return rootPaths.some((root) => path.endsWith(root));
}

/** The hint for a base URL under which the service's paths are not found. */
function baseUrlHint(base: { url: string; from: string } | undefined): string {
  if (base === undefined) return 'The service address (--base-url or DATAWORKZ_BASE_URL) is likely wrong.';
  const parsed = new URL(base.url);
  const from = `It comes from ${base.from}.`;
  if (/\/api\/?$/.test(parsed.pathname)) {
    const fixed = `${parsed.origin}${parsed.pathname.replace(/\/api\/?$/, '')}`;
    return `The service address ${base.url} ends in /api, which every path adds again: use ${fixed}. ${from}`;
  }
  return `The service address ${base.url} is likely wrong: the service's own paths are not found under it. ${from}`;
}

/** The commands that list what exists, for something not found; never the command that just failed. */
function listHint(facts: ErrorFacts, command: readonly string[] | undefined): string | undefined {
  const group = command?.[1];
  const lists =
    facts.kind === 'QnA system' || (facts.kind === undefined && group === 'qna')
      ? ['dataworkz qna list']
      : facts.kind === 'agent' || group === 'agents'
        ? ['dataworkz agents list']
        : ['dataworkz agents list', 'dataworkz qna list'];
  if (facts.name === 'NotFoundError' && command?.join(' ') === 'dataworkz qna document') {
    return 'A document id is printed with each result of `dataworkz qna search` and `dataworkz qna answer`.';
  }
  const useful = lists.filter((list) => list !== command?.join(' '));
  if (useful.length === 0) return undefined;
  return `List what exists with ${useful.map((list) => `\`${list}\``).join(' or ')}.`;
}

/** The exit code and hint for a failure, from the error and the command it ended. */
function verdict(facts: ErrorFacts, scene: FailureScene): [ExitCodeValue, string | undefined] {
  // An unknown LLM's message already lists the LLMs there are.
  if (facts.kind === 'LLM') return [byName[facts.name]?.[0] ?? ExitCode.error, undefined];
  if (facts.name === 'NotFoundError' && isRootPath(scene.notFoundUrl)) {
    return [ExitCode.usage, baseUrlHint(scene.baseUrl)];
  }
  const [code, hint] = byName[facts.name] ?? [ExitCode.error, undefined];
  if (code === ExitCode.notFound) return [code, listHint(facts, scene.command)];
  // The message names the address that could not be reached; the hint, where it came from.
  if (facts.name === 'APIConnectionError' && scene.baseUrl !== undefined) {
    return [
      code,
      `Check that the service is reachable, and its address: it comes from ${scene.baseUrl.from}.`,
    ];
  }
  return [code, hint];
}

/** Prints one line for the failure (what, status, reason, request id) and a hint; returns the exit code. */
export function reportFailure(error: unknown, out: Output, scene: FailureScene = {}): ExitCodeValue {
  const facts = factsOf(error);
  const [code, hint] = verdict(facts, scene);
  if (code === ExitCode.interrupted) {
    out.error('Interrupted.');
    return code;
  }
  // Each fact once: an HTTP error's message already begins with its status.
  const details = [
    facts.status !== undefined && !facts.message.startsWith(`${facts.status} `)
      ? `status ${facts.status}`
      : undefined,
    facts.failureReason !== undefined && !facts.message.includes(facts.failureReason)
      ? `reason: ${facts.failureReason}`
      : undefined,
    facts.requestId !== undefined ? `request id ${facts.requestId}` : undefined,
  ].filter((part) => part !== undefined);
  const { red, dim } = out.colors;
  // The message and reason can quote the service or a file: inert before they reach the terminal.
  out.error(
    `${red('Error:')} ${terminalText(`${facts.message}${details.length > 0 ? ` (${details.join(', ')})` : ''}`)}`,
  );
  if (hint) out.error(dim(hint));
  return code;
}
