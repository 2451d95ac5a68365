// The emulator's A2A v1.0 side, loaded only when an emulator speaks v1.0.
export { v1CardJson } from './card.js';
export { V1AgentServer } from './server.js';
