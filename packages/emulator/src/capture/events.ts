import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One Server-Sent Event: its fields as a browser's EventSource reads them. */
export interface CapturedEvent {
  event?: string;
  id?: string;
  data: string;
}

/**
 * An event stream read as the events it holds (eventsource-parser: CR, LF and CRLF line ends, data
 * over several `data:` lines joined with a line feed, comments dropped), fed as it arrives. An event
 * not ended by a blank line when the stream ends is not an event (a browser drops it too).
 */
export class EventReader {
  readonly #parser;

  constructor(onEvent: (event: CapturedEvent) => void) {
    this.#parser = createParser({ onEvent: (message) => onEvent(eventOf(message)) });
  }

  feed(text: string): void {
    this.#parser.feed(text);
  }
}

function eventOf(message: EventSourceMessage): CapturedEvent {
  return {
    ...(message.event ? { event: message.event } : {}),
    ...(message.id !== undefined ? { id: message.id } : {}),
    data: message.data,
  };
}

/** The events of a whole stream's text. */
export function eventsOf(text: string): CapturedEvent[] {
  const events: CapturedEvent[] = [];
  const reader = new EventReader((event) => events.push(event));
  reader.feed(text);
  return events;
}

/** Events written back as an event stream, one field a line, each data line its own `data:`. */
export function eventStreamText(events: readonly CapturedEvent[]): string {
  let out = '';
  for (const event of events) out += eventText(event);
  return out;
}

export function eventText({ event, id, data }: CapturedEvent): string {
  let out = '';
  if (id !== undefined) out += `id: ${oneLine(id)}\n`;
  if (event !== undefined) out += `event: ${oneLine(event)}\n`;
  for (const line of data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}
