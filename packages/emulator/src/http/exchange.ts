import type { IncomingMessage } from 'node:http';
import type { Query } from './query.js';
import type { Reply } from './reply.js';

/** One request being answered, as handlers see it. */
export interface Exchange {
  req: IncomingMessage;
  path: string;
  params: Record<string, string>;
  query: Query;
  body: string;
  reply: Reply;
  /** Aborted when the client goes away or the emulator closes. */
  signal: AbortSignal;
}
