import { ContextValuesError } from './errors.js';

/** The path of the provided-values extension below a deployment's extension base. */
export const PROVIDED_VALUES_PATH = '/agents/ext/provided-values/v1';

/** The HTTP header that activates A2A v0.3 extensions (A2A v1.0 renamed it `A2A-Extensions`). */
export const EXTENSIONS_HEADER = 'X-A2A-Extensions';

/** The provided-values extension URI for an extension base such as `https://dataworkz.com`. */
export function providedValuesUri(base: string): string {
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new ContextValuesError(`The extension base must be an absolute URL, got ${JSON.stringify(base)}`);
  }
  if (parsed.search || parsed.hash) {
    throw new ContextValuesError('The extension base must not carry a query or a fragment');
  }
  return `${base.replace(/\/+$/, '')}${PROVIDED_VALUES_PATH}`;
}

/** The shape of an agent card this package reads: only the advertised extensions. */
export interface CardWithExtensions {
  capabilities?: { extensions?: ReadonlyArray<{ uri?: string } | null | undefined> | null } | null;
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
  const seen = new Set<string>();
  for (const source of sources) {
    if (source == null) continue;
    for (const item of typeof source === 'string' ? [source] : source) {
      for (const uri of item.split(',')) {
        const trimmed = uri.trim();
        if (trimmed) seen.add(trimmed);
      }
    }
  }
  return [...seen].join(', ');
}
