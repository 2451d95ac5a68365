import { ContextValuesError } from './errors.js';

/** The path of the provided-values extension below a deployment's extension base. */
export const PROVIDED_VALUES_PATH = '/agents/ext/provided-values/v1';

/** The HTTP header that activates A2A v0.3 extensions (A2A v1.0 renamed it `A2A-Extensions`). */
export const EXTENSIONS_HEADER = 'X-A2A-Extensions';

/** The provided-values extension URI for an extension base such as `https://dataworkz.com`. */
export function providedValuesUri(base: string): string {
  let url: URL | undefined;
  try {
    url = new URL(base);
  } catch {}
  // A query or fragment would swallow the appended path.
  if (!url || url.search || url.hash) throw new ContextValuesError(`Bad extension base: ${base}`);
  return `${base.replace(/\/+$/, '')}${PROVIDED_VALUES_PATH}`;
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

/** The provided-values extension URI an agent card advertises, or undefined when it advertises none. */
export function findProvidedValuesUri(card: CardWithExtensions): string | undefined {
  const extensions = card.capabilities?.extensions;
  if (!Array.isArray(extensions)) return undefined;
  for (const extension of extensions) {
    const uri = extension?.uri;
    if (typeof uri === 'string' && uri.replace(/\/+$/, '').endsWith(PROVIDED_VALUES_PATH)) return uri;
  }
  return undefined;
}

/**
 * The `X-A2A-Extensions` header value for any mix of URIs, URI lists and existing header values:
 * comma-separated, trimmed, duplicates removed, first occurrence kept.
 */
export function extensionsHeader(
  ...sources: ReadonlyArray<string | readonly string[] | null | undefined>
): string {
  const uris = sources.flat().flatMap((source) => source?.split(',') ?? []);
  return [...new Set(uris.map((uri) => uri.trim()).filter(Boolean))].join(', ');
}
