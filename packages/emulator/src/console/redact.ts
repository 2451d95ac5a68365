import { presentedCredentials, Redaction } from '@dataworkz/redaction';
import type { LoggedExchange } from './exchange-log.js';

/**
 * A copy of the entry fit for the page, by the SDK's one redaction policy (@dataworkz/redaction):
 * secret-named headers and query parameters redacted (`Authorization` keeps its scheme), secret-named
 * JSON members redacted whole, and every secret the emulator knows (its keys, its JWT secret) or the
 * request presented replaced wherever it appears (path, query, headers, bodies, every field of a
 * stream's events). The bodies are cut to `maxBodyBytes` after that, never before.
 */
export function redactExchange(
  entry: LoggedExchange,
  secrets: readonly string[],
  maxBodyBytes: number,
): LoggedExchange {
  const presented = presentedCredentials(
    Object.entries(entry.requestHeaders),
    new URLSearchParams(entry.query).entries(),
  );
  const redaction = new Redaction([...secrets, ...presented]);
  const headers = (record: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(record)) out[name] = redaction.header(name, value);
    return out;
  };
  const isStream = (entry.responseHeaders['content-type'] ?? '').startsWith('text/event-stream');
  return {
    ...entry,
    path: redaction.text(entry.path),
    query: entry.query === '' ? '' : redaction.url(`?${entry.query}`).slice(1),
    requestHeaders: headers(entry.requestHeaders),
    requestBody: shown(redaction.body(entry.requestBody), entry.requestBytes, maxBodyBytes),
    responseHeaders: headers(entry.responseHeaders),
    responseBody: isStream
      ? cut(redaction.eventStream(entry.responseBody), maxBodyBytes)
      : shown(redaction.body(entry.responseBody), entry.responseBytes, maxBodyBytes),
  };
}

/**
 * A body as the page shows it: cut to the limit once redacted. JSON cut by the limit no longer parses,
 * so its members cannot be judged by name: it is not shown, only its size.
 */
function shown(text: string, bytes: number, max: number): string {
  if (bytes <= max) return text;
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    return `[${bytes} bytes of JSON past the console's limit of ${max}: not shown, as its members cannot be checked for secrets]`;
  }
  return cut(text, max);
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
