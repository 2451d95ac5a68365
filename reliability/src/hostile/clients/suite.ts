import type { Suite } from '../../runner/case.js';
import {
  badLocation,
  concurrentRefresh,
  dataRedirect,
  sseExtras,
  throwingGetter,
  throwingOnResponse,
} from './cases/behaviour.js';
import {
  brotliBomb,
  endlessErrorBody,
  endlessSuccessBody,
  endlessTaskBody,
  gzipBomb,
  hugeJsonErrorBody,
} from './cases/bodies.js';
import { echoedHeader, escapedRpcId, mintedTokens, straddlingCut } from './cases/secrets.js';
import { getTaskNoHeaders, streamNoHeaders } from './cases/time.js';

/** Hostile servers against the clients; each case runs the client in a process of its own. */
export const clientsSuite: Suite = {
  name: 'clients',
  description: 'hostile servers against @dataworkz/client and @dataworkz/a2a',
  cases: [
    streamNoHeaders,
    getTaskNoHeaders,
    endlessErrorBody,
    hugeJsonErrorBody,
    endlessSuccessBody,
    gzipBomb,
    brotliBomb,
    endlessTaskBody,
    echoedHeader,
    straddlingCut,
    escapedRpcId,
    mintedTokens,
    concurrentRefresh,
    throwingOnResponse,
    dataRedirect,
    badLocation,
    sseExtras,
    throwingGetter,
  ],
};
