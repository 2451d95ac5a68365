import type { EmulatorControls } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';

/** The JSON-RPC methods the emulator's agent stream endpoint received, oldest first. */
export function methodsSent(emu: EmulatorControls): string[] {
  return emu.requests
    .filter((request) => request.path.endsWith('/stream'))
    .map((request) => (JSON.parse(request.body) as { method: string }).method);
}

// The emulator counts a stream open or closed as its socket opens or closes, a few ticks after the
// client. Bounded, so a stream never opened or never closed fails the test that waits instead of hanging
// the suite.

/** Resolves once the emulator has an agent stream open. */
export function streamOpened(emu: { readonly openStreams: number }): Promise<void> {
  return until(() => emu.openStreams > 0, 'a stream open');
}

/** Resolves once every agent stream of the emulator is closed. */
export function streamsClosed(emu: { readonly openStreams: number }): Promise<void> {
  return until(() => emu.openStreams === 0, 'every stream closed');
}
