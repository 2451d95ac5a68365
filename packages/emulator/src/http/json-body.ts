import { HttpError } from './errors.js';

const badBody = (message: string) => new HttpError(400, message, {}, 'BAD_REQUEST_BODY');

/**
 * Parses a JSON request body; text that is not JSON, or nests arrays and objects deeper than
 * `maxDepth`, is the caller's mistake (400). The depth is counted on the text, before parsing, so
 * no deep value ever reaches code that walks it recursively (JSON.stringify, structured clones).
 */
export function parseJsonBody(text: string, maxDepth: number): unknown {
  checkJsonDepth(text, maxDepth);
  try {
    return JSON.parse(text);
  } catch {
    throw badBody('The request body is not valid JSON');
  }
}

/** Refuses (400) a body that nests arrays and objects deeper than `maxDepth`, JSON or not. */
export function checkJsonDepth(text: string, maxDepth: number): void {
  if (nestsDeeperThan(text, maxDepth)) {
    throw badBody(`The request body nests arrays and objects deeper than ${maxDepth} levels`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const OPEN_CURLY = 0x7b;
const CLOSE_SQUARE = 0x5d;
const CLOSE_CURLY = 0x7d;
const COMMA = 0x2c;

/** Whether JSON text opens more than `maxDepth` arrays or objects at once; one pass, no recursion. */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  return tooDeepMember(text, maxDepth) !== undefined;
}

/**
 * Where JSON text first opens more than `maxDepth` arrays or objects at once, as the index of the
 * member of its outermost array or object that holds that point (0 for the first); undefined when it
 * never does. One pass, no recursion: it judges text no parser has walked yet.
 */
export function tooDeepMember(text: string, maxDepth: number): number | undefined {
  let depth = 0;
  let member = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      depth += 1;
      if (depth > maxDepth) return member;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      depth -= 1;
    } else if (c === COMMA && depth === 1) {
      member += 1;
    }
  }
  return undefined;
}
