/** The head of an error's message: enough for a table note, without a stack. */
export function firstLines(error: unknown, lines = 2): string {
  return (error instanceof Error ? error.message : String(error)).split('\n').slice(0, lines).join(' ');
}
