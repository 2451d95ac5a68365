import type { Query } from './query.js';
import type { Reply } from './reply.js';

/** One request being answered, as handlers see it. */
export interface Exchange {
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Where the caller reached the emulator (`http://host:port`), for links in answers. */
  origin: string;
  path: string;
  params: Record<string, string>;
  query: Query;
  body: string;
  reply: Reply;
  /** Calls `listener` once the exchange ends (client gone, response done, or emulator closed). */
  onClose(listener: () => void): void;
}
