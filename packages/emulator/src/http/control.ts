import { HttpError } from './errors.js';
import { checkFaultRule, type FaultList } from './faults.js';
import { parseJsonBody } from './json-body.js';
import type { RequestRecorder } from './recorder.js';
import type { Reply } from './reply.js';

export const controlPrefix = '/_emulator/';

/** The control endpoints: fault rules and recorded requests (callers check credentials first). */
export function control(
  method: string,
  path: string,
  body: string,
  reply: Reply,
  faults: FaultList,
  recorder: RequestRecorder,
  maxJsonDepth: number,
): void {
  if (path === '/_emulator/faults' && method === 'POST') {
    const parsed = parseJsonBody(body, maxJsonDepth);
    const rules = (Array.isArray(parsed) ? parsed : [parsed]).map(checkFaultRule);
    for (const rule of rules) faults.add(rule);
    reply.json(200, { added: rules.length, active: faults.size });
  } else if (path === '/_emulator/faults' && method === 'DELETE') {
    faults.clear();
    reply.json(200, { active: 0 });
  } else if (path === '/_emulator/requests' && method === 'GET') {
    reply.json(200, recorder.requests);
  } else if (path === '/_emulator/requests' && method === 'DELETE') {
    recorder.clear();
    reply.json(200, { requests: 0 });
  } else {
    throw new HttpError(404, `No endpoint ${method} ${path}`, {}, 'NOT_FOUND');
  }
}
