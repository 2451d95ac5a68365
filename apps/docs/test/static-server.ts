// The built site served as a static host serves it (clean URLs, no compression). Not `vitepress
// preview`: it brotli-compresses every response on the fly at the highest quality, which takes
// seconds for the emulator's 6 MB word-vector chunk and would time the Run buttons out.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

async function fileFor(root: string, pathname: string): Promise<string | undefined> {
  const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  for (const candidate of [path, `${path}.html`, join(path, 'index.html')]) {
    const file = join(root, candidate);
    if (!file.startsWith(root)) return undefined;
    if ((await stat(file).catch(() => undefined))?.isFile()) return file;
  }
  return undefined;
}

/** Serves `root` on a free loopback port; resolves with its origin and a close function. */
export async function serveStatic(root: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const file = await fileFor(root, new URL(request.url ?? '/', 'http://site').pathname);
    if (file === undefined) {
      response.writeHead(404).end('Not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
