import { NotFoundError } from '../core/errors.js';
import { isUuidShaped } from '../core/params.js';

/**
 * A 404 for a path whose QnA system or agent id is not UUID-shaped gains a hint naming the resolver
 * that turns a name into an id, without a further request. Other errors pass as they are.
 */
export function hintNamesOnNotFound(
  error: unknown,
  path: { systemId?: unknown; agentId?: unknown },
): unknown {
  if (!(error instanceof NotFoundError) || error.hint !== undefined) return error;
  const [given, resolver] =
    typeof path.systemId === 'string'
      ? [path.systemId, 'qna.resolve()']
      : typeof path.agentId === 'string'
        ? [path.agentId, 'agents.resolve()']
        : [undefined, undefined];
  if (given === undefined || isUuidShaped(given)) return error;
  const hint = `If "${given}" is a name, ${resolver} finds its id.`;
  Object.defineProperty(error, 'hint', { value: hint, enumerable: true });
  error.message = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${hint}`;
  return error;
}
