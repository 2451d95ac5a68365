/** The exit codes scripts can branch on (documented in the README). */
export const ExitCode = {
  ok: 0,
  /** Anything not listed below. */
  error: 1,
  /**
   * A command, flag or argument the CLI does not accept; missing or wrong configuration (a service
   * address under which the service's own paths are not found).
   */
  usage: 2,
  /** The service refused the credential (401, 403). */
  auth: 3,
  /** No such agent, system, document or task (404). */
  notFound: 4,
  /** The service answered but the query or the agent's task failed. */
  failed: 5,
  /** The service could not be reached, or did not answer in time. */
  network: 6,
  /** `qna eval --baseline`: a metric fell more than the allowed drop below the baseline. */
  regressed: 7,
  /**
   * `qna eval --baseline`: no experiment of the run has a row in the baseline (a renamed system, another
   * `--llm`, another golden set), so nothing was judged.
   */
  noBaseline: 8,
  /** Stopped by Ctrl-C. */
  interrupted: 130,
} as const;

/** One of the exit codes. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A mistake in how the command was called: its message says what to change. */
export class UsageError extends Error {
  override name = 'UsageError';
}
