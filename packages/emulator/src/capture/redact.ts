import { isSecretName, presentedCredentials, REDACTED, Redaction } from '@dataworkz/redaction';
import type { CapturedBody } from './body.js';
import { type CapturedEvent, eventStreamText } from './events.js';
import { multipartText } from './forms.js';

/** Headers as sent: names and values, a repeated header repeated. */
export type HeaderList = readonly (readonly [string, string])[];

/** A raw header list (`[name, value, name, value, ...]`) as pairs. */
export function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

/**
 * The redaction policy (@dataworkz/redaction) set up for one exchange: the credentials its request
 * presented (every `Authorization`, secret-named headers and query parameters, cookies, a repeated
 * one each time), the cookies its response set, and the emulator's own secrets (its keys, its JWT
 * secret). Every surface of the exchange is redacted by it.
 */
export function exchangeRedaction(
  secrets: readonly string[],
  requestHeaders: HeaderList,
  query: string,
  responseHeaders: HeaderList = [],
): Redaction {
  return new Redaction([
    ...secrets,
    ...presentedCredentials(requestHeaders, new URLSearchParams(query)),
    ...presentedCredentials(responseHeaders.filter(([name]) => /^set-cookie2?$/i.test(name))),
  ]);
}

/** Headers redacted, names and values: a name that holds a secret loses it too. */
export function redactHeaderList(list: HeaderList, redaction: Redaction): [string, string][] {
  return list.map(([name, value]) => [redaction.headerName(name), redaction.header(name, value)]);
}

/** Headers as one record, names in lower case, a repeated header's values joined with `, `. */
export function headerRecordOf(list: HeaderList): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of list) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return { ...out };
}

/** A query's parameters redacted, names and values (HAR's `queryString`). */
export function redactQueryPairs(pairs: HeaderList, redaction: Redaction): { name: string; value: string }[] {
  return pairs.map(([name, value]) => ({
    name: redaction.text(name),
    value: isSecretName(name) ? REDACTED : redaction.text(value),
  }));
}

/**
 * A captured body redacted: JSON members and form fields and parts under secret names whole, every
 * secret replaced everywhere else (names, events' every field, parts' names and file names). An
 * unreadable body holds no text: it stays its size and hash.
 */
export function redactBody(body: CapturedBody, redaction: Redaction): CapturedBody {
  switch (body.kind) {
    case 'empty':
    case 'unreadable':
      return body;
    case 'text':
      return { ...body, text: redaction.body(body.text) };
    case 'events':
      return {
        ...body,
        events: body.events.map((event) => redactEvent(event, redaction)),
      };
    case 'form':
      // Read as sent and decoded alike: a `+` is a space once decoded, and a secret's base64 has `+`.
      return { ...body, text: redaction.form(body.text) };
    case 'multipart':
      return {
        ...body,
        boundary: redaction.text(body.boundary),
        parts: body.parts.map((part) => ({
          ...part,
          name: redaction.text(part.name),
          ...(part.filename === undefined ? {} : { filename: redaction.text(part.filename) }),
          ...(part.contentType === undefined ? {} : { contentType: redaction.mediaType(part.contentType) }),
          ...(part.text === undefined
            ? {}
            : { text: isSecretName(part.name) ? REDACTED : redaction.body(part.text) }),
        })),
      };
  }
}

/** One event redacted: every field scrubbed, its data read as a body (a JSON payload's members judged). */
export function redactEvent<E extends CapturedEvent>(event: E, redaction: Redaction): E {
  return {
    ...event,
    ...(event.event === undefined ? {} : { event: redaction.text(event.event) }),
    ...(event.id === undefined ? {} : { id: redaction.text(event.id) }),
    data: redaction.body(event.data),
  };
}

/** A (redacted) body written back as text: what a surface shows or stores of it. */
export function bodyText(body: CapturedBody): string {
  switch (body.kind) {
    case 'empty':
      return '';
    case 'unreadable':
      return '';
    case 'text':
      return body.text;
    case 'events':
      return eventStreamText(body.events);
    case 'form':
      return body.text;
    case 'multipart':
      return multipartText(body.parts, body.boundary);
  }
}
