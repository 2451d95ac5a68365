/**
 * Hashes and ids that work in every runtime. Seeded ids and key checks are computed synchronously,
 * and Web Crypto's digest is asynchronous: the digests come from `#digests`, Node's own hashes under
 * the `node` condition (Bun and Deno have them too), @noble/hashes elsewhere.
 */
export { sha1Hex, sha256Bytes } from '#digests';

export const randomUUID = (): string => globalThis.crypto.randomUUID();

function randomToken(bytes: number): string {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let binary = '';
  for (const byte of random) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A key for an emulator started without one: `dwz_` and 24 random characters. */
export const generatedApiKey = (): string => `dwz_${randomToken(18)}`;

/** Compares equal-length byte arrays in time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
