// The emulator's A2A v1.0 side, loaded only when a request names a version other than v0.3.
export { v1CardJson } from './card.js';
export { V1AgentServer } from './server.js';
export { versionNotSupported } from './version-error.js';
