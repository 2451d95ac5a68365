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

/**
 * Emulating: credentials are checked first but refused only after a fault applies (faults reach
 * callers with any credentials); the request is heard once its body is in.
 */
const emulateOrder: readonly ApiStep[] = [
  checkCredentials,
  readBody,
  hear,
  refuseBadBody,
  answerPreflight,
  injectFault,
  refuseBadCredentials,
  takeRateToken,
  runOperation,
];

/**
 * Replaying: the credentials emulating asks for (code that sends a wrong key fails on replay as it
 * would there), then the cassette; a request it lacks goes on to the emulated service when the
 * fallback emulates.
 */
const replayOrder: readonly ApiStep[] = [
  checkCredentials,
  readBody,
  refuseBadBody,
  refuseBadCredentials,
  hear,
  replayCassette,
  injectFault,
  takeRateToken,
  runOperation,
];

/** Recording: a fault in force answers first; else the deployment answers, judging the credentials itself. */
const recordOrder: readonly ApiStep[] = [injectFault, forwardToDeployment];

/** The order a request takes: its mode's for API requests, emulating's for every other path. */
export function orderOf(mode: Mode, call: ApiCall): readonly ApiStep[] {
  if (!call.isApi) return emulateOrder;
  if (mode.kind === 'record') return recordOrder;
  if (mode.kind === 'replay' && call.incoming.method !== 'OPTIONS') return replayOrder;
  return emulateOrder;
}

/** Runs the steps in turn until one answers. */
export async function runOrder(call: ApiCall, order: readonly ApiStep[]): Promise<void> {
  for (const step of order) {
    if ((await step(call)) === 'answered') return;
  }
}
