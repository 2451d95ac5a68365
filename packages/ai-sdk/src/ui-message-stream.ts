import {
  type A2AArtifact,
  type A2APart,
  type AgentEvent,
  type AgentRun,
  DataworkzError,
  type TaskState,
  type TaskUpdate,
} from '@dataworkz/a2a';
import { createUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';

/** What the client needs to continue the conversation: send `taskId` and `contextId` back with the reply. */
export interface DataworkzMessageMetadata {
  taskId?: string;
  contextId?: string;
  /** The task's state when the run ended: `completed`, or `input-required` when the agent asks back. */
  state?: TaskState;
}

/** The agent asks back: its question is the message's text; answer it on the same task. */
export interface InputRequiredData {
  question: string;
  taskId?: string;
  contextId?: string;
}

/** The data parts of a Dataworkz agent's message: `data-task-update` and `data-input-required`. */
export type DataworkzDataTypes = {
  'task-update': TaskUpdate;
  'input-required': InputRequiredData;
};

/** A UI message of a Dataworkz agent, as `useChat<DataworkzUIMessage>()` renders it. */
export type DataworkzUIMessage = UIMessage<DataworkzMessageMetadata, DataworkzDataTypes>;

/** A chunk of the stream `toUIMessageStream` returns. */
export type DataworkzUIMessageChunk = UIMessageChunk<DataworkzMessageMetadata, DataworkzDataTypes>;

/** Options of `toUIMessageStream`. */
export interface ToUIMessageStreamOptions {
  /**
   * The text of an error part, for an error the run ends with. By default the message of the
   * package's own errors (their credentials already removed), and a generic text for anything else.
   */
  onError?: ((error: unknown) => string) | undefined;
  /** The id of the assistant message, when the application keeps messages by id. */
  messageId?: string | undefined;
}

function defaultErrorText(error: unknown): string {
  return error instanceof DataworkzError ? error.message : 'The agent run failed.';
}

/** The citations a message or artifact carries: its file parts that point at a document by URL. */
function sourcesOf(parts: readonly A2APart[] | undefined): { url: string; title?: string }[] {
  const sources: { url: string; title?: string }[] = [];
  for (const part of parts ?? []) {
    if (part.kind !== 'file' || !('uri' in part.file) || typeof part.file.uri !== 'string') continue;
    const title = part.file.name;
    sources.push({ url: part.file.uri, ...(typeof title === 'string' ? { title } : {}) });
  }
  return sources;
}

function artifactText(artifact: A2AArtifact): string {
  return artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

function partsOf(event: AgentEvent): readonly A2APart[] | undefined {
  if (event.type === 'artifact') return event.artifact.parts;
  if (event.type === 'status') return event.message?.parts;
  if (event.type === 'message') return event.message.parts;
  return undefined;
}

/**
 * An agent run as the AI SDK's UI message stream, for `createUIMessageStreamResponse({ stream })` and
 * `useChat`: each task update as a `data-task-update` part, the answer as text, the documents the
 * agent cites as `source-url` parts, a question back as text with a `data-input-required` part, and
 * the ids to continue with as message metadata. An error the run ends with becomes an error part.
 * Cancelling the stream (the client went away) stops the run.
 */
export function toUIMessageStream(
  run: AgentRun,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<DataworkzUIMessageChunk> {
  const onError = options.onError ?? defaultErrorText;
  const stream = createUIMessageStream<DataworkzUIMessage>({
    onError,
    execute: async ({ writer }) => {
      writer.write(
        options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId },
      );
      let textId: string | undefined;
      let streamedText = false;
      // The artifact text sent so far, so a resumed run can send what its gap held back.
      let sentArtifactText = '';
      let steps = 0;
      const seenSources = new Set<string>();
      const text = (delta: string) => {
        if (delta === '') return;
        if (textId === undefined) {
          textId = 'answer';
          writer.write({ type: 'text-start', id: textId });
        }
        writer.write({ type: 'text-delta', id: textId, delta });
      };
      for await (const event of run) {
        if (event.type === 'task-update') {
          steps += 1;
          writer.write({ type: 'data-task-update', id: `step-${steps}`, data: event.data });
          continue;
        }
        for (const source of sourcesOf(partsOf(event))) {
          if (seenSources.has(source.url)) continue;
          seenSources.add(source.url);
          writer.write({ type: 'source-url', sourceId: `source-${seenSources.size}`, ...source });
        }
        if (event.type === 'artifact') {
          text(event.text);
          sentArtifactText += event.text;
          streamedText ||= event.text !== '';
        } else if (event.type === 'resumed') {
          // The chunks sent during the gap are in the task's artifacts: the text goes on from there.
          const whole = event.artifacts.map(artifactText).join('');
          if (whole.startsWith(sentArtifactText)) {
            text(whole.slice(sentArtifactText.length));
            sentArtifactText = whole;
            streamedText ||= whole !== '';
          }
        } else if (event.final && (event.type === 'status' || event.type === 'message') && !streamedText) {
          // The final message carries the answer when no artifact streamed it.
          text(event.text);
        }
      }
      const final = await run.finalAnswer();
      if (textId !== undefined) writer.write({ type: 'text-end', id: textId });
      const ids = {
        ...(final.taskId !== undefined ? { taskId: final.taskId } : {}),
        ...(final.contextId !== undefined ? { contextId: final.contextId } : {}),
      };
      if (final.state === 'input-required') {
        writer.write({
          type: 'data-input-required',
          id: 'input-required',
          data: { question: final.answer, ...ids },
        });
      }
      writer.write({ type: 'finish', messageMetadata: { ...ids, state: final.state } });
    },
  });
  // Cancelling the response stream ends the run's connection too.
  const reader = stream.getReader();
  return new ReadableStream<DataworkzUIMessageChunk>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      run.abort(reason);
      await reader.cancel(reason);
    },
  });
}
