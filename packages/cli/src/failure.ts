import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import type { Output } from './output.js';

interface ErrorFacts {
  name: string;
  message: string;
  status?: number;
  requestId?: string;
  failureReason?: string;
}

function factsOf(error: unknown): ErrorFacts {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { status, requestId, failureReason } = error as Error & Partial<ErrorFacts>;
  return {
    name: error.name,
    message: error.message,
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(typeof failureReason === 'string' ? { failureReason } : {}),
  };
}

// By the error's name, not its class: the clients load only when a command needs them.
const byName: Record<string, [ExitCodeValue, string | undefined]> = {
  UsageError: [ExitCode.usage, undefined],
  InvalidParameterError: [ExitCode.usage, 'See `dataworkz <command> --help`.'],
  AuthenticationError: [
    ExitCode.auth,
    'Check the key: DATAWORKZ_API_KEY (or DATAWORKZ_TOKEN), or `dataworkz config set api-key`.',
  ],
  PermissionDeniedError: [ExitCode.auth, 'The credential works but may not do this; ask an account admin.'],
  NotFoundError: [
    ExitCode.notFound,
    'List what exists with `dataworkz agents list` or `dataworkz qna list`.',
  ],
  UnknownNameError: [
    ExitCode.notFound,
    'List what exists with `dataworkz agents list` or `dataworkz qna list`.',
  ],
  AmbiguousNameError: [ExitCode.usage, undefined],
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

/** Prints one line for the failure (what, status, reason, request id) and a hint; returns the exit code. */
export function reportFailure(error: unknown, out: Output): ExitCodeValue {
  const facts = factsOf(error);
  const [code, namedHint] = byName[facts.name] ?? [ExitCode.error, undefined];
  // An unknown LLM's message already lists the LLMs there are.
  const hint = (error as { kind?: unknown }).kind === 'LLM' ? undefined : namedHint;
  if (code === ExitCode.interrupted) {
    out.error('Interrupted.');
    return code;
  }
  const details = [
    facts.status !== undefined ? `status ${facts.status}` : undefined,
    facts.failureReason !== undefined && !facts.message.includes(facts.failureReason)
      ? `reason: ${facts.failureReason}`
      : undefined,
    facts.requestId !== undefined ? `request id ${facts.requestId}` : undefined,
  ].filter((part) => part !== undefined);
  const { red, dim } = out.colors;
  out.error(`${red('Error:')} ${facts.message}${details.length > 0 ? ` (${details.join(', ')})` : ''}`);
  if (hint) out.error(dim(hint));
  return code;
}
