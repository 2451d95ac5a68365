import { InvalidParameterError } from '@dataworkz/client';

/**
 * What an event id says: the task, the event's place in the stream, and whether it ended the stream.
 * An id reads `<taskId>:<sequence>`, and `<taskId>:<sequence>:end` on the last event (the answer or an
 * error); the task id is URI-encoded, so it holds no `:` of its own.
 */
export interface EventPosition {
  /** Empty when the stream ended before the agent named a task. */
  taskId: string;
  sequence: number;
  ended: boolean;
}

export function eventId({ taskId, sequence, ended }: EventPosition): string {
  return `${encodeURIComponent(taskId)}:${sequence}${ended ? ':end' : ''}`;
}

const ID = /^([^:]*):(\d{1,15})(:end)?$/;

/** The position a reconnecting `EventSource` names in its `Last-Event-ID`; undefined when it names none. */
export function lastEventPosition(
  header: string | readonly string[] | null | undefined,
): EventPosition | undefined {
  // Node types an unknown header as a list too; an EventSource sends it once.
  const lastEventId = typeof header === 'string' || header == null ? header : header.join(',');
  if (lastEventId === undefined || lastEventId === null || lastEventId === '') return undefined;
  const match = ID.exec(lastEventId);
  let taskId: string | undefined;
  try {
    taskId = match ? decodeURIComponent(match[1] as string) : undefined;
  } catch {
    // A malformed escape: not an id this package wrote.
  }
  if (match === null || taskId === undefined || (taskId === '' && match[3] === undefined)) {
    throw new InvalidParameterError(
      'lastEventId',
      'lastEventId is not the id of an agent event stream event (`<taskId>:<sequence>`).',
    );
  }
  return { taskId, sequence: Number(match[2]), ended: match[3] !== undefined };
}
