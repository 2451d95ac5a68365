export { isSecretName } from './names.js';
export { presentedCredentials } from './presented.js';
export { REDACTED, Redaction } from './redaction.js';
