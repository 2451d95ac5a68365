import { readFile } from 'node:fs/promises';

/**
 * The bytes of a file shipped with the package, in Node, Bun and Deno: read from the folder of the
 * module that names it (`new URL('…', import.meta.url)`). A bundle that moved the file serves it
 * over HTTP instead, so that is fetched.
 */
export async function readAsset(url: URL): Promise<Uint8Array> {
  if (url.protocol !== 'file:') {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`The emulator could not fetch ${url.href}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  return readFile(url);
}
