// Every error a call of this package can reject with, so one import covers a `catch`.
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataworkzError,
  InternalServerError,
  InvalidParameterError,
  MalformedResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from '@dataworkz/client';
export { ContextValuesError } from '@dataworkz/context-values';
export type {
  A2AArtifact,
  A2AArtifactUpdate,
  A2ADataPart,
  A2AFilePart,
  A2AMessage,
  A2APart,
  A2AStatusUpdate,
  A2AStreamEvent,
  A2ATask,
  A2ATaskStatus,
  A2ATextPart,
  TaskState,
} from './a2a-types.js';
export { getAgentCard } from './agent.js';
export type { FinalAnswer } from './answer.js';
export { type AgentToolAnswer, type AskAgentOptions, askAgent } from './ask-agent.js';
export {
  IncompleteStreamError,
  JsonRpcError,
  NoLlmError,
  NotAStreamError,
  ResumeFailedError,
  StreamEventTooLargeError,
  StreamIdleTimeoutError,
  StreamProtocolError,
  TaskFailedError,
  VersionNotSupportedError,
} from './errors.js';
export type {
  AgentSseAnswer,
  AgentSseError,
  AgentSseEvent,
  AgentSseOptions,
  AgentSseStep,
} from './event-stream/sse-events.js';
export { agentSseResponse } from './event-stream/sse-response.js';
export { type SseServerResponse, writeAgentSse } from './event-stream/write-sse.js';
export {
  type AgentArtifactEvent,
  type AgentEvent,
  type AgentEventBase,
  type AgentMessageEvent,
  type AgentResumedEvent,
  type AgentStatusEvent,
  type AgentTaskEvent,
  type AgentTaskUpdateEvent,
  type AgentUnknownEvent,
  SVC_STATUS_UPDATE,
} from './events.js';
export { type A2AProtocol, UnsupportedProtocolError } from './protocol.js';
export type { ResumeOptions } from './resume.js';
export { AgentRun } from './run.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_EVENT_BYTES,
  type StreamAgentOptions,
  streamAgent,
} from './stream-agent.js';
export type { TaskUpdate, TaskUpdateToolType, TaskUpdateType } from './task-update.js';
export { cancelTask, type GetTaskOptions, getTask, type TaskCallOptions } from './tasks.js';
