export { seed } from './data/seed.js';
export type { CorsOptions } from './http/cors.js';
export type { FaultRule } from './http/faults.js';
export type { RecordedRequest } from './http/recorder.js';
export type { OperationId } from './http/router.js';
export type { EmulatorLimits } from './limits.js';
export type { EmulatorLogger } from './logger.js';
export type { EmulatorOptions } from './options.js';
export { type Emulator, startEmulator } from './server.js';
