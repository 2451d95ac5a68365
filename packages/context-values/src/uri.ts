import { ContextValuesError } from './errors.js';
import { isRecord, read, readItems } from './json.js';

/** The path of the provided-values extension below a deployment's extension base. */
export const PROVIDED_VALUES_PATH = '/agents/ext/provided-values/v1';

/** The HTTP header that activates A2A v0.3 extensions (A2A v1.0 renamed it `A2A-Extensions`). */
export const EXTENSIONS_HEADER = 'X-A2A-Extensions';

/** The provided-values extension URI for an extension base such as `https://dataworkz.com`. */
export function providedValuesUri(base: string): string {
  // A non-string is not put into words: its toString is the caller's code and may throw.
  if (typeof base !== 'string') throw new ContextValuesError('Bad extension base: not a string');
  let url: URL | undefined;
  try {
    url = new URL(base);
  } catch {}
  // A query or fragment would swallow the appended path.
  if (!url || url.search || url.hash) throw new ContextValuesError(`Bad extension base: ${base}`);
  return `${trimSlashes(base)}${PROVIDED_VALUES_PATH}`;
}

/** `text` without trailing slashes: a loop, since /\/+$/ takes quadratic time on a long run of them. */
function trimSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}

/** The shape of an agent card this package reads: only the advertised extensions. */
export interface CardWithExtensions {
  capabilities?:
    | {
        extensions?: ReadonlyArray<{ uri?: string | undefined } | null | undefined> | null | undefined;
      }
    | null
    | undefined;
}

/**
 * The provided-values extension URI an agent card advertises, or undefined when it advertises none.
 * Throws ContextValuesError, naming the path, when the card is not an object or reading it throws (a
 * getter or Proxy trap).
 */
export function findProvidedValuesUri(card: CardWithExtensions): string | undefined {
  if (!isRecord(card)) throw new ContextValuesError('card must be an object', 'card');
  const capabilities = read('card.capabilities', () => card.capabilities);
  if (!isRecord(capabilities)) return undefined;
  const path = 'card.capabilities.extensions';
  const extensions = read(path, () => capabilities.extensions);
  if (!read(path, () => Array.isArray(extensions))) return undefined;
  for (const [at, extension] of readItems(extensions, path)) {
    const uri = isRecord(extension) ? read(`${at}.uri`, () => extension.uri) : undefined;
    if (typeof uri === 'string' && trimSlashes(uri).endsWith(PROVIDED_VALUES_PATH)) return uri;
  }
  return undefined;
}

/**
 * The `X-A2A-Extensions` header value for any mix of URIs, URI lists and existing header values:
 * comma-separated, trimmed, duplicates removed, first occurrence kept. Throws ContextValuesError,
 * naming the argument (`sources[1][0]`), for an item that is not a string or cannot be read.
 */
export function extensionsHeader(
  ...sources: ReadonlyArray<string | readonly string[] | null | undefined>
): string {
  const uris: string[] = [];
  sources.forEach((source, index) => {
    const path = `sources[${index}]`;
    const items = read(path, () => Array.isArray(source))
      ? readItems(source, path)
      : [[path, source] as const];
    for (const [at, item] of items) {
      if (item === null || item === undefined) continue;
      if (typeof item !== 'string') throw new ContextValuesError(`${at} must be a string`, at);
      for (const uri of item.split(',')) uris.push(uri);
    }
  });
  return [...new Set(uris.map((uri) => uri.trim()).filter(Boolean))].join(', ');
}
