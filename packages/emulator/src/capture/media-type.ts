import { parse } from 'content-type';

/** A media type as RFC 9110 §8.3.1 reads it: type and subtype in lower case, the parameters apart. */
export interface MediaType {
  /** `type/subtype` in lower case; empty when none was sent or it does not parse. */
  essence: string;
  /** Parameter names in lower case, values unquoted. */
  parameters: Readonly<Record<string, string>>;
}

const none: MediaType = { essence: '', parameters: {} };

/**
 * The media type of a `Content-Type` value (`Text/Event-Stream; Charset="UTF-8"` reads as
 * `text/event-stream` with charset `UTF-8`). One that does not parse reads as none: its body is then
 * judged as a body without a type is.
 */
export function mediaTypeOf(header: string | undefined): MediaType {
  if (header === undefined || header.trim() === '') return none;
  try {
    const { type, parameters } = parse(header);
    return { essence: type.toLowerCase(), parameters };
  } catch {
    return none;
  }
}

/** Whether a body of this type is text the redaction reads (JSON, text, XML, forms, an event stream). */
export function isTextual(type: MediaType): boolean {
  const { essence } = type;
  return (
    essence === '' ||
    essence.startsWith('text/') ||
    essence === 'multipart/form-data' ||
    /json|xml|javascript|x-www-form-urlencoded/.test(essence)
  );
}

export function isEventStream(type: MediaType): boolean {
  return type.essence === 'text/event-stream';
}
