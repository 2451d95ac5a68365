// The passage shape is the client's, shared by every surface.
export type { Passage } from '@dataworkz/client';
export {
  type AnswerInput,
  type AnswerOutput,
  type AskAgentInput,
  type AskAgentOutput,
  type DataworkzTools,
  type DataworkzToolsOptions,
  dataworkzTools,
  type SearchInput,
  type SearchOutput,
} from './tools.js';
export {
  type DataworkzDataTypes,
  type DataworkzMessageMetadata,
  type DataworkzUIMessage,
  type DataworkzUIMessageChunk,
  type InputRequiredData,
  type ToUIMessageStreamOptions,
  toUIMessageStream,
} from './ui-message-stream.js';
