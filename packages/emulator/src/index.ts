import { startEmulator as startOnNode } from '#node-server';
import type { Emulator } from './node/server.js';
import type { EmulatorOptions } from './options.js';

export {
  type Cassette,
  type CassetteEntry,
  CassetteError,
  type CassetteEvent,
  type HarNameValue,
} from './cassette/har.js';
export type { EmulatorControls } from './controls.js';
export { type DriftFinding, type DriftKind, type DriftReport, driftSummary } from './drift-report.js';
export { EmbeddingError, type EmbedFunction } from './embedding/model.js';
export { type ExportLinesSource, exportLines } from './export-lines.js';
export type { CorsOptions } from './http/cors.js';
export type { FaultRule } from './http/faults.js';
export type { RecordedRequest } from './http/recorder.js';
export type { OperationId } from './http/router.js';
export { createEmulator, type InProcessEmulator, type InProcessOptions } from './in-process.js';
export type { EmulatorLimits } from './limits.js';
export type { EmulatorLogger } from './logger.js';
export type { Emulator, EmulatorMode } from './node/server.js';
export type { EmulatorOptions } from './options.js';
export type { AnswerVariation } from './qna/answer-variation.js';
export {
  type EmulatorState,
  type SavedDocument,
  type SavedSystem,
  StateFormatError,
  stateFormat,
  stateVersion,
} from './saved-state/snapshot.js';
export { seed } from './seed.js';

/**
 * Starts the emulator on plain node:http and resolves once it listens. Node's own (also in Bun and
 * Deno): `#node-server` is the node:http adapter under the `node` import condition, and elsewhere
 * (browser and edge bundles) a function that rejects, saying to use `createEmulator`.
 */
export function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startOnNode(options);
}
