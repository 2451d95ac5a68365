/**
 * A context value or extension URI that the provided-values extension cannot carry; nothing was
 * sent. It belongs to the client's error family: `error instanceof DataworkzError` is true.
 */
export class ContextValuesError extends Error {
  // Written out: minifiers rename classes, and the name is what logs show.
  override name = 'ContextValuesError';
  /** The option at fault: the root of `path` (e.g. `contextValues`), or `extensionUri`. */
  readonly parameter: string;
  /** Where the offending value sits, e.g. `values.user.tags[2]`; absent for errors about URIs. */
  declare readonly path?: string;

  constructor(message: string, path?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.parameter = path === undefined ? 'extensionUri' : (/^[^.[]*/.exec(path)?.[0] ?? path);
    if (path !== undefined) this.path = path;
  }
}
// The client's error family mark, registered globally so this package needs no dependency on it.
Object.defineProperty(ContextValuesError.prototype, Symbol.for('@dataworkz/error'), { value: true });
