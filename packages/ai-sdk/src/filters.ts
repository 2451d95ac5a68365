import { type FilterExpression, filter } from '@dataworkz/client';
import { z } from 'zod';

// The field names the client's filter builder accepts: identifiers, optionally dotted.
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Structured filters: each field with the values it may take. Only values cross the wire as data,
 * so nothing a model writes can change the expression's structure.
 */
export const filtersSchema = z
  .record(
    z.string().regex(FIELD, 'A filter field is an identifier such as topic or meta.year.'),
    z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .min(1, 'A filter field needs at least one value.'),
  )
  .describe(
    'Metadata filters: field name to the values it may take, e.g. {"topic": ["returns"], "year": [2025, 2026]}. ' +
      'A result matches when each field has one of its values. Field names are the metadata fields of the system.',
  );

export type Filters = z.infer<typeof filtersSchema>;

/** The filter expression for structured filters, built with the client's filter builder. */
export function filterExpression(filters: Filters | undefined): FilterExpression | undefined {
  const entries = Object.entries(filters ?? {});
  if (entries.length === 0) return undefined;
  return filter.and(...entries.map(([field, values]) => filter.in(field, values)));
}
