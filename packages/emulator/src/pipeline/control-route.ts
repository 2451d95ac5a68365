import { controlOperation } from '../control/operations.js';
import type { Surface } from '../http/access-guard.js';
import type { Closing } from '../http/closing.js';
import { HttpError } from '../http/errors.js';
import { parseJsonBody } from '../http/json-body.js';
import type { Reply } from '../http/reply.js';
import { fromUtf8 } from '../neutral/bytes.js';
import type { Incoming, PipelineParts } from '../pipeline.js';

/** One of the control operations, after the guard (the console's) or with its own check (`/_emulator/`). */
export async function controlRequest(
  parts: PipelineParts,
  incoming: Incoming,
  surface: Surface,
  name: string,
  reply: Reply,
  closing: Closing,
): Promise<void> {
  const { method, headers } = incoming;
  const { guard, limits } = parts;
  if (surface === 'control') {
    if (method === 'OPTIONS') {
      reply.empty(204, { allow: 'GET, POST, PUT, DELETE, OPTIONS' });
      return;
    }
    const refused = await guard.refusal(incoming, 'control');
    if (refused !== undefined) throw refused;
  }
  const { operation, params } = controlOperation(method, name);
  const value = await operation.run(parts.control, {
    params,
    local: incoming.local,
    json: async () => {
      // The page's own requests send JSON; a form on another site cannot (it sends no such type).
      if (surface === 'console-api' && !(headers['content-type'] ?? '').startsWith('application/json')) {
        throw new HttpError(415, 'Send JSON (content-type: application/json)', {}, 'UNSUPPORTED_MEDIA_TYPE');
      }
      const received = await incoming.readBody(limits.maxBodyBytes);
      if (received.refusal) throw received.refusal;
      return parseJsonBody(fromUtf8(received.bytes), limits.maxJsonDepth);
    },
    reply,
    onClose: (listener) => closing.on(listener),
  });
  if (value !== undefined) reply.json(200, value);
}
