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
  /** Calls `listener` once the connection closes (client gone, response done, or emulator closed). */
  onClose(listener: () => void): void;
}
