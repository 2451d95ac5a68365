import type { Mode } from '../pipeline.js';
import {
  type ApiCall,
  type ApiStep,
  answerPreflight,
  checkCredentials,
  forwardToDeployment,
  hear,
  injectFault,
  readBody,
  refuseBadBody,
  refuseBadCredentials,
  replayCassette,
  runOperation,
  takeRateToken,
} from './api-steps.js';

// Emulating and replaying judge a request alike up to the source that answers it: the credentials
// and the body, then a fault in force, then the caller's rate limit. Recording keeps those last two
// before the deployment. A user who injects a 503 into a replayed test gets it; a fault's or the rate
// limit's answer is the emulator's own (a recording never holds it).

/**
 * The steps before emulating's or replaying's source: credentials are checked first but refused only
 * after a fault applies (faults reach callers with any credentials); the request is heard once its
 * body is in.
 */
const admit: readonly ApiStep[] = [
  checkCredentials,
  readBody,
  hear,
  refuseBadBody,
  answerPreflight,
  injectFault,
  refuseBadCredentials,
  takeRateToken,
];

/** Emulating: the emulated service answers what is admitted. */
const emulateOrder: readonly ApiStep[] = [...admit, runOperation];

/**
 * Replaying: emulating's order, the cassette answering before the emulated service. The credentials
 * are those emulating asks for (code that sends a wrong key fails on replay as it would there); a
 * request the cassette lacks gets the miss, or the emulated service's answer when the fallback emulates.
 */
const replayOrder: readonly ApiStep[] = [...admit, replayCassette, runOperation];

/**
 * Recording: a fault in force, then the rate limit (which spares the deployment as it would the
 * emulator), then the deployment, which judges the credentials and answers every method, preflight
 * requests included.
 */
const recordOrder: readonly ApiStep[] = [injectFault, takeRateToken, forwardToDeployment];

const orders: Record<Mode['kind'], readonly ApiStep[]> = {
  emulate: emulateOrder,
  replay: replayOrder,
  record: recordOrder,
};

/** The order a request takes: its mode's for API requests, emulating's for every other path. */
export function orderOf(mode: Mode, call: ApiCall): readonly ApiStep[] {
  return call.isApi ? orders[mode.kind] : emulateOrder;
}

/** Runs the steps in turn until one answers. */
export async function runOrder(call: ApiCall, order: readonly ApiStep[]): Promise<void> {
  for (const step of order) {
    if ((await step(call)) === 'answered') return;
  }
}
