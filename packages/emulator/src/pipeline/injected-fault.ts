import type { Closing } from '../http/closing.js';
import { errorBody } from '../http/errors.js';
import type { FaultRule } from '../http/faults.js';
import type { Reply } from '../http/reply.js';

/**
 * A fault's latency, then its answer or its dropped connection (undefined: answered); else the reply
 * through which the answer goes, the fault applied to what it writes.
 */
export async function answerFault(
  fault: FaultRule,
  path: string,
  reply: Reply,
  closing: Closing,
): Promise<Reply | undefined> {
  if (fault.latencyMs) await delay(fault.latencyMs, closing);
  if (fault.drop === 'before-headers') {
    reply.drop();
    return undefined;
  }
  const faulted = reply.withFault(fault);
  if (fault.status !== undefined || fault.body !== undefined) {
    const status = fault.status ?? 200;
    faulted.send(
      status,
      'application/json',
      fault.body ?? JSON.stringify(errorBody(status, 'Injected fault', path, 'INJECTED_FAULT')),
    );
    return undefined;
  }
  return faulted;
}

/**
 * Waits `ms`, or less if the exchange ends first. The timer holds the process open, as a request in
 * flight to a slow server does: through `createEmulator().fetch` nothing else may (the client's own
 * time-out timer does not), and the process would end with the call unsettled.
 */
function delay(ms: number, closing: Closing): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    closing.on(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
