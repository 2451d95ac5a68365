import type { Dataworkz } from '@dataworkz/client';
import type { Exposure } from './exposure.js';

/** What every tool and resource works with: the client underneath and what the server exposes. */
export interface ToolContext {
  dw: Dataworkz;
  exposure: Exposure;
}
