/** A context value or extension URI that the provided-values extension cannot carry. */
export class ContextValuesError extends Error {
  /** Where the offending value sits, e.g. `values.user.tags[2]`; absent for errors about URIs. */
  readonly path: string | undefined;

  constructor(message: string, path?: string) {
    super(message);
    this.name = 'ContextValuesError';
    this.path = path;
  }
}
