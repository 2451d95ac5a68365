import type { Emulator } from './node/server.js';
import type { EmulatorOptions } from './options.js';

/**
 * What `startEmulator` is where Node's `node` export condition does not apply (browser and edge
 * bundles): listening on a port needs node:http, and the in-process emulator needs nothing.
 */
export async function startEmulator(_options?: EmulatorOptions): Promise<Emulator> {
  throw new TypeError(
    'startEmulator listens on a port with node:http, which this runtime does not have: use createEmulator, which answers through its fetch',
  );
}
