import { consoleMarker } from '../console/exchange-log.js';
import { answerPage, consolePath } from '../console/page.js';
import type { Surface } from '../http/access-guard.js';
import type { Answer } from '../http/answer.js';
import type { Closing } from '../http/closing.js';
import { HttpError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';
import type { Incoming, PipelineParts } from '../pipeline.js';
import { controlRequest } from './control-route.js';

const consoleApiPrefix = '/console/api/';
const consoleProxy = '/console/api/proxy';

/** Headers every answer of the console carries: nothing cached, sniffed, framed or referred. */
export const consoleHeaders = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Headers the console page may pass on to the API (never a credential: the console adds its own). */
const proxiedHeaders = ['content-type', 'accept', 'x-a2a-extensions', 'a2a-extensions'];

/** Whether the console serves `path` (its page, its control operations, its proxy to the API). */
export function isConsolePath(parts: PipelineParts, path: string): boolean {
  return parts.consoleAssets !== undefined && (path === consolePath || path.startsWith(`${consolePath}/`));
}

/** How the console's route reaches the rest of the pipeline. */
export interface ConsoleRoute {
  /** Sends a request on to the API as any caller's (the console's proxy). */
  handle(incoming: Incoming): Promise<Answer>;
  /** Runs one exchange of the console's own (its headers, never heard by the listeners). */
  exchange(
    incoming: Incoming,
    run: (incoming: Incoming, reply: Reply, closing: Closing) => void | Promise<void>,
  ): Promise<Answer>;
}

/** The console: the guard first; then its page, its proxy to the API, or a control operation. */
export async function consoleRequest(
  parts: PipelineParts,
  route: ConsoleRoute,
  incoming: Incoming,
  path: string,
): Promise<Answer> {
  const surface: Surface = path.startsWith(consoleApiPrefix) ? 'console-api' : 'console-page';
  const refusal = await parts.guard.refusal(incoming, surface);
  const isProxy = path === consoleProxy || path.startsWith(`${consoleProxy}/`);
  const apiTarget = incoming.target.slice(consoleProxy.length);
  if (refusal === undefined && isProxy && apiTarget.startsWith('/api/')) {
    return route.handle(proxied(parts, incoming, apiTarget));
  }
  return route.exchange(incoming, (_, reply, closing) => {
    if (refusal !== undefined) throw refusal;
    if (isProxy) throw new HttpError(404, 'The console forwards only API paths', {}, 'NOT_FOUND');
    if (surface === 'console-page') {
      answerPage(parts.consoleAssets ?? new Map(), incoming.method, path, reply);
      return;
    }
    return controlRequest(parts, incoming, surface, path.slice(consoleApiPrefix.length), reply, closing);
  });
}

/** A request of the console's page to the API, sent on as a program holding the key would send it. */
function proxied(parts: PipelineParts, incoming: Incoming, target: string): Incoming {
  const { headers, local } = incoming;
  const sent: Record<string, string> = {
    host: headers.host ?? '',
    'user-agent': 'Dataworkz emulator console',
    [consoleMarker]: '1',
  };
  // The emulator's key for a browser on this machine only, and never to a deployment being recorded
  // (which knows nothing of it); a peer elsewhere proved its own credential to the guard.
  const authorization =
    local && parts.mode.kind !== 'record' ? `SSWS ${parts.control.apiKey}` : headers.authorization;
  if (authorization !== undefined) sent.authorization = authorization;
  for (const name of proxiedHeaders) {
    const value = headers[name];
    if (value !== undefined) sent[name] = value;
  }
  if (headers['content-length'] !== undefined) sent['content-length'] = headers['content-length'];
  // What a recording passes on is what the page may send, never the browser's own raw headers.
  const { rawHeaders: _raw, ...rest } = incoming;
  return { ...rest, target, headers: sent };
}
