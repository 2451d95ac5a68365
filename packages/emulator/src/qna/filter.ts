import type { CorpusDocument, FilterField } from '../data/model.js';
import { own } from '../data/own.js';

/** A conjunction of clauses; each clause keeps documents whose field is one of the values. */
export interface FilterExpression {
  clauses: { field: string; values: string[] }[];
}

/** A filter the service cannot apply: reported as a FAILED query, not an HTTP error. */
export class FilterError extends Error {
  override readonly name = 'FilterError';
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string };

const bareToken = /-?\d+(?:\.\d+)?(?![\w.])|[A-Za-z_][\w.]*/y;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input.charAt(i);
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "'") {
      let text = '';
      i += 1;
      for (;;) {
        if (i >= input.length) throw new FilterError('Malformed filter: unterminated string literal');
        if (input[i] === "'" && input[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (input[i] === "'") {
          i += 1;
          break;
        } else {
          text += input[i];
          i += 1;
        }
      }
      tokens.push({ kind: 'string', text });
    } else if ('(),='.includes(c)) {
      tokens.push({ kind: 'punct', text: c });
      i += 1;
    } else {
      // Sticky, at i: no copy of the rest of the input per token.
      bareToken.lastIndex = i;
      const match = bareToken.exec(input);
      if (!match) throw new FilterError(`Malformed filter: unexpected character '${c}' at position ${i + 1}`);
      const text = match[0];
      tokens.push({ kind: /^-?\d/.test(text) ? 'number' : 'word', text });
      i += text.length;
    }
  }
  return tokens;
}

/** Parses `field in ('a', 'b') and field = 'c'` against the system's fields; throws FilterError. */
export function parseFilter(input: string, fields: FilterField[]): FilterExpression {
  const tokens = tokenize(input);
  const known = new Set(fields.map((f) => f.name));
  const clauses: FilterExpression['clauses'] = [];
  let at = 0;
  const next = () => tokens[at++];
  const isWord = (t: Token | undefined, word: string) => t?.kind === 'word' && t.text.toLowerCase() === word;
  const value = (): string => {
    const t = next();
    if (t?.kind === 'string' || t?.kind === 'number') return t.text;
    throw new FilterError(
      `Malformed filter: expected a quoted value or a number${t ? ` but found '${t.text}'` : ''}`,
    );
  };
  if (tokens.length === 0) return { clauses };
  for (;;) {
    const field = next();
    if (field?.kind !== 'word' || isWord(field, 'and') || isWord(field, 'in')) {
      throw new FilterError(
        `Malformed filter: expected a field name${field ? ` but found '${field.text}'` : ''}`,
      );
    }
    if (!known.has(field.text)) throw new FilterError(`Unknown filter field: ${field.text}`);
    const op = next();
    if (op?.kind === 'punct' && op.text === '=') {
      clauses.push({ field: field.text, values: [value()] });
    } else if (isWord(op, 'in')) {
      const open = next();
      if (open?.kind !== 'punct' || open.text !== '(')
        throw new FilterError("Malformed filter: expected '(' after 'in'");
      const values = [value()];
      for (;;) {
        const sep = next();
        if (sep?.kind === 'punct' && sep.text === ')') break;
        if (sep?.kind !== 'punct' || sep.text !== ',')
          throw new FilterError("Malformed filter: expected ',' or ')'");
        values.push(value());
      }
      clauses.push({ field: field.text, values });
    } else {
      throw new FilterError(`Malformed filter: expected 'in' or '=' after '${field.text}'`);
    }
    if (at >= tokens.length) return { clauses };
    if (!isWord(next(), 'and')) throw new FilterError("Malformed filter: expected 'and' between clauses");
  }
}

const quote = (v: string) => `'${v.replaceAll("'", "''")}'`;

/** The canonical text of an expression, as reported in appliedFilters and friends. */
export function formatFilter(expression: FilterExpression): string {
  return expression.clauses
    .map((c) =>
      c.values.length === 1
        ? `${c.field} = ${quote(c.values[0] ?? '')}`
        : `${c.field} in (${c.values.map(quote).join(', ')})`,
    )
    .join(' and ');
}

export function matchesFilter(document: CorpusDocument, expression: FilterExpression): boolean {
  return expression.clauses.every((c) => {
    const actual = own(document.metadata, c.field);
    return actual !== undefined && c.values.includes(String(actual));
  });
}

/** A product version named in text: `version 2.0`, `Nimbus 2.1`, `v1.2` (global: for `matchAll` and `replace`). */
export const versionMention = /\b(?:version|nimbus|v)\s*(\d+\.\d+)\b/gi;

/** Filters a question implies: a product version it names (`version 2.0`, `Nimbus 2.1`, `v1.2`). */
export function extractFilters(
  question: string,
  documents: CorpusDocument[],
  fields: FilterField[],
): FilterExpression {
  if (!fields.some((f) => f.name === 'version')) return { clauses: [] };
  // Built only when the question names a version: most do not.
  let versions: Set<string> | undefined;
  const found: string[] = [];
  for (const m of question.matchAll(versionMention)) {
    const v = m[1] ?? '';
    versions ??= new Set(documents.map((d) => String(d.metadata.version ?? '')));
    if (versions.has(v) && !found.includes(v)) found.push(v);
  }
  return { clauses: found.length ? [{ field: 'version', values: found }] : [] };
}
