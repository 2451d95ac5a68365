import { FIELD, FIELD_RULE } from './filter.js';

/**
 * The zod constructors `filtersSchema` builds with: the `z` of zod 4, or of zod 3.25 and later,
 * fits. Typed this loosely so the client depends on no zod version (it is the surfaces' peer).
 */
export interface FiltersSchemaZod {
  string(): { regex(pattern: RegExp, message: string): unknown };
  number(): unknown;
  boolean(): unknown;
  union(options: never): unknown;
  array(item: never): { min(length: number, message: string): unknown };
  record(key: never, value: never): { describe(description: string): unknown };
}

/**
 * The schema of structured filters (`FilterFields`: a field name to the values it may take), built
 * with the caller's zod, for a tool's input: its field names follow the rule of the `filter`
 * builder, and `filterOfFields` turns what it accepts into the expression. `Schema` is the type the
 * caller's zod gives it, e.g. `z.ZodType<FilterFields>`; `fieldNames` ends the description by saying
 * where the model finds the field names.
 */
export function filtersSchema<Schema>(z: FiltersSchemaZod, fieldNames: string): Schema {
  const value = z.union([z.string(), z.number(), z.boolean()] as never);
  const values = z.array(value as never).min(1, 'A filter field needs at least one value.');
  return z
    .record(z.string().regex(FIELD, FIELD_RULE) as never, values as never)
    .describe(
      'Metadata filters: field name to the values it may take, e.g. {"topic": ["returns"], "year": [2025, 2026]}. ' +
        `A result matches when each field has one of its values. ${fieldNames}`,
    ) as Schema;
}
