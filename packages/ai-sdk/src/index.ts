export type { Passage } from './passages.js';
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
