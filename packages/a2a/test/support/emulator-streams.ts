import type { EmulatorControls } from '@dataworkz/emulator';

/** The JSON-RPC methods the emulator's agent stream endpoint received, oldest first. */
export function methodsSent(emu: EmulatorControls): string[] {
  return emu.requests
    .filter((request) => request.path.endsWith('/stream'))
    .map((request) => (JSON.parse(request.body) as { method: string }).method);
}

// The emulator counts a stream open or closed as its socket opens or closes, a few ticks after the client.
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Resolves once the emulator has an agent stream open. */
export async function streamOpened(emu: EmulatorControls): Promise<void> {
  while (emu.openStreams === 0) await tick();
}

/** Resolves once every agent stream of the emulator is closed. */
export async function streamsClosed(emu: EmulatorControls): Promise<void> {
  while (emu.openStreams > 0) await tick();
}
