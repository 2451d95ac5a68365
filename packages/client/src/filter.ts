import { InvalidParameterError } from './core/errors.js';

/** A value a filter can compare with: strings are single-quoted, numbers and booleans written as is. */
export type FilterValue = string | number | boolean;

/** Structured filters: each metadata field with the values it may take (see `filterOfFields`). */
export type FilterFields = { [field: string]: readonly FilterValue[] };

// Field names are written bare, so only plain identifiers (optionally dotted) are accepted.
export const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
export const FIELD_RULE = 'A filter field must be an identifier such as version or meta.year.';

/** A filter expression built from checked parts; `toString()` gives the text the service reads. */
export class FilterExpression {
  private readonly text: string;

  private constructor(text: string) {
    this.text = text;
  }

  /** @internal */
  static of(text: string): FilterExpression {
    return new FilterExpression(text);
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/** Builds filter expressions whose values can never change the expression's structure. */
export const filter = {
  /** `field in ('a', 'b')` */
  in(field: string, values: readonly FilterValue[]): FilterExpression {
    if (!Array.isArray(values) || values.length === 0) {
      throw new InvalidParameterError(
        'filter',
        `filter.in('${checkField(field)}', ...) needs at least one value.`,
      );
    }
    return FilterExpression.of(`${checkField(field)} in (${values.map(literal).join(', ')})`);
  },

  /** `field = 'a'` */
  eq(field: string, value: FilterValue): FilterExpression {
    return FilterExpression.of(`${checkField(field)} = ${literal(value)}`);
  },

  /** Every condition must hold: `a and b and c`. */
  and(...conditions: FilterExpression[]): FilterExpression {
    if (conditions.length === 0) {
      throw new InvalidParameterError('filter', 'filter.and() needs at least one condition.');
    }
    for (const condition of conditions) {
      if (!(condition instanceof FilterExpression)) {
        throw new InvalidParameterError(
          'filter',
          'filter.and() takes expressions made by the filter builder.',
        );
      }
    }
    return FilterExpression.of(conditions.join(' and '));
  },
};

/** A filter value as a literal: strings quoted with `'`, an inner `'` doubled (SQL style). */
function literal(value: FilterValue): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidParameterError('filter', 'A filter number must be finite.');
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  throw new InvalidParameterError('filter', 'A filter value must be a string, number or boolean.');
}

function checkField(field: string): string {
  if (typeof field !== 'string' || !FIELD.test(field)) {
    throw new InvalidParameterError('filter', FIELD_RULE);
  }
  return field;
}

/**
 * The expression structured filters stand for: each field one of its values (`a in (...) and b in
 * (...)`), built with `filter` so no value can change its structure; undefined for no fields.
 */
export function filterOfFields(fields: FilterFields | undefined): FilterExpression | undefined {
  const entries = Object.entries(fields ?? {});
  if (entries.length === 0) return undefined;
  return filter.and(...entries.map(([field, values]) => filter.in(field, values)));
}
