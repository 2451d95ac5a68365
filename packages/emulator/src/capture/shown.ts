import type { CapturedBody } from './body.js';
import { bodyText } from './redact.js';

/**
 * A redacted body as a surface shows it, cut to its limit (`limit` names it: "the console's limit").
 * JSON cut by the limit no longer parses, so its members cannot be judged by name: it is not shown,
 * only its size; nor is a body the redaction cannot read (not text, an unknown charset), which only
 * its size and SHA-256 stand for.
 */
export function shownBody(body: CapturedBody, max: number, limit: string): string {
  if (body.kind === 'unreadable') {
    return `[${body.size} bytes not shown: ${body.why}; SHA-256 ${body.sha256}]`;
  }
  if (body.kind === 'text' && body.json && (body.cut || body.size > max)) {
    return `[${body.size} bytes of JSON past ${limit} of ${max}: not shown, as its members cannot be checked for secrets]`;
  }
  return cutText(bodyText(body), max);
}

/** A text cut to at most `max` characters. */
export function cutText(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
