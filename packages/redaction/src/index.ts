export { isSecretName } from './names.js';
export { presentedCredentials } from './presented.js';
export { REDACTED, Redaction, SCRUB_MARGIN_BYTES } from './redaction.js';
