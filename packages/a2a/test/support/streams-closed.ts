import { until } from '@dataworkz/measure';

/**
 * Resolves once the emulator counts no open stream: it counts one closed once its socket closes, which
 * follows the client's abort or end by a few ticks. Bounded, so a stream never closed fails the test
 * that left it instead of hanging the suite.
 */
export function streamsClosed(server: { readonly openStreams: number }): Promise<void> {
  return until(() => server.openStreams === 0, 'every stream closed');
}
