// The A2A v0.3 wire shapes this package reads, declared here to keep the SDK's types out of the public API.

/** A2A v0.3 task states (`unknown` included); other strings pass through untouched. */
export type TaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** A part of a message or artifact that is text. */
export interface A2ATextPart {
  kind: 'text';
  text: string;
  metadata?: { [key: string]: unknown };
}

/** A part of a message or artifact that is structured data (a JSON object). */
export interface A2ADataPart {
  kind: 'data';
  data: { [key: string]: unknown };
  metadata?: { [key: string]: unknown };
}

/** A part of a message or artifact that is a file, inline or by URI. */
export interface A2AFilePart {
  kind: 'file';
  /** Base64 `bytes` or a `uri`. */
  file:
    | { name?: string; mimeType?: string; bytes: string }
    | { name?: string; mimeType?: string; uri: string };
  metadata?: { [key: string]: unknown };
}

/** A part of a message or artifact: text, data or a file. */
export type A2APart = A2ATextPart | A2ADataPart | A2AFilePart;

/** A message from the user or the agent. */
export interface A2AMessage {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: A2APart[];
  contextId?: string;
  taskId?: string;
  referenceTaskIds?: string[];
  extensions?: string[];
  metadata?: { [key: string]: unknown };
}

/** A task's state, with the agent's message about it. */
export interface A2ATaskStatus {
  state: TaskState;
  message?: A2AMessage;
  timestamp?: string;
}

/** Something a task produced, such as the answer, in parts. */
export interface A2AArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2APart[];
  extensions?: string[];
  metadata?: { [key: string]: unknown };
}

/** A task: its status, its artifacts and its history. */
export interface A2ATask {
  kind: 'task';
  id: string;
  contextId: string;
  status: A2ATaskStatus;
  artifacts?: A2AArtifact[];
  history?: A2AMessage[];
  metadata?: { [key: string]: unknown };
}

/** A change of a task's status, as a stream sends it. */
export interface A2AStatusUpdate {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  final: boolean;
  status: A2ATaskStatus;
  metadata?: { [key: string]: unknown };
}

/** An artifact, or a chunk of one (`append`), as a stream sends it. */
export interface A2AArtifactUpdate {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: A2AArtifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: { [key: string]: unknown };
}

/** One event of an A2A v0.3 `message/stream` response, exactly as the service sent it. */
export type A2AStreamEvent = A2AMessage | A2ATask | A2AStatusUpdate | A2AArtifactUpdate;
