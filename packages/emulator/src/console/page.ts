import { HttpError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';

/** A file of the console page, ready to send. */
export interface Asset {
  type: string;
  body: Uint8Array;
}

export const consolePath = '/console';

/** Only the page's own scripts and styles, talking only to the emulator that served it. */
const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Answers a request for the console page or one of its files (the guard has let it in). */
export function answerPage(
  assets: ReadonlyMap<string, Asset>,
  method: string,
  path: string,
  reply: Reply,
): void {
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `${method} is not served here`);
  const assetName = path.startsWith('/console/assets/') ? path.slice('/console/assets/'.length) : undefined;
  if (assetName !== undefined && assetName !== 'index.html') {
    const asset = assets.get(assetName);
    if (!asset) throw new HttpError(404, `No console file ${assetName}`);
    reply.send(200, asset.type, asset.body);
    return;
  }
  // Every other path is one of the page's own views: the page routes it.
  const page = assets.get('index.html');
  if (!page) {
    reply.send(
      503,
      'text/plain; charset=utf-8',
      'The console page is missing from this copy of @dataworkz/emulator: build the package (pnpm build) and start it again.\n',
    );
    return;
  }
  reply.send(200, page.type, page.body, { 'content-security-policy': pagePolicy });
}
