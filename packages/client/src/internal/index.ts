/**
 * `@dataworkz/client/internal`: what the other `@dataworkz/*` packages build on and users do not call.
 * Outside the API report and the reference, and under no semver promise: any release may change it.
 *
 * @packageDocumentation
 */
export { readErrorBody } from '../core/errors.js';
export { serializePath, serializeQuery } from '../core/params.js';
export { resolveOnce } from '../resolve-once.js';
export { checkOptionKeys } from './option-checks.js';
