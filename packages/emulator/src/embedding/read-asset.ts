/**
 * The bytes of a file shipped with the package, where modules are served over HTTP (a browser, a
 * worker, an edge runtime): fetched from the URL the bundler gives it. Node, Bun and Deno take
 * src/node/read-asset.ts instead (the `node` condition of `#read-asset`).
 */
export async function readAsset(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The emulator could not fetch ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
