import type { Exchange } from '../http/exchange.js';

/** The A2A versions the emulator's agents speak, each on its own request path. */
export type A2AVersion = '0.3' | '1.0';

/** Every version served, in the order the v1.0 card lists its interfaces (the preferred first). */
export const servedVersions: readonly A2AVersion[] = ['1.0', '0.3'];

/**
 * What a request asked for: a version served (`named` when the request said so, rather than being
 * taken for a v0.3 client's), or one that is not (answered with -32009).
 */
export type RequestedVersion =
  | { ok: true; version: A2AVersion; named: boolean }
  | { ok: false; asked: string };

// `Major.Minor`, with a patch number tolerated: the specification says it must not count (section 3.6).
const versionPattern = /^(\d+)\.(\d+)(?:\.\d+)?$/;

/** A version as a client names it, read: no value at all is a v0.3 client's (section 3.6.2). */
function readVersion(value: string | undefined): RequestedVersion {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return { ok: true, version: '0.3', named: false };
  const match = versionPattern.exec(trimmed);
  const majorMinor = match ? `${Number(match[1])}.${Number(match[2])}` : undefined;
  const served = servedVersions.find((version) => version === majorMinor);
  return served ? { ok: true, version: served, named: true } : { ok: false, asked: trimmed };
}

/**
 * The version a request names: its `A2A-Version` header, else the `A2A-Version` query parameter the
 * specification allows in its place (section 3.6.1).
 */
export function requestedVersion(ex: Exchange): RequestedVersion {
  return readVersion(ex.headers['a2a-version'] ?? ex.query.optional('A2A-Version'));
}
