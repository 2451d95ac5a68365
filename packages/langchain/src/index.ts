export {
  type AgentArtifact,
  type AgentToolOptions,
  dataworkzAgentTool,
  TASK_UPDATE_EVENT,
  type TaskUpdateEventData,
} from './agent-tool.js';
export { DataworkzAnswerRetriever, type DataworkzAnswerRetrieverInput } from './answer-retriever.js';
export { type AnswerMetadata, isAnswerDocument, type PassageMetadata, splitAnswer } from './documents.js';
export {
  type AnswerArtifact,
  type AnswerToolOptions,
  dataworkzAnswerTool,
  dataworkzSearchTool,
  type QnaToolOptions,
  type SearchToolOptions,
} from './qna-tools.js';
export { DataworkzRetriever, type DataworkzRetrieverInput } from './retriever.js';
