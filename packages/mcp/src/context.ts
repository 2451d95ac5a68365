import type { Dataworkz } from '@dataworkz/client';
import type { ExposedIds } from './exposure.js';

/** What every tool and resource works with: the client underneath and what the server exposes. */
export interface ToolContext {
  dw: Dataworkz;
  /** The ids of what the server exposes, its names resolved once, on first use. */
  exposure: () => Promise<ExposedIds>;
}
