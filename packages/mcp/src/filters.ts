import { type FilterFields, filtersSchema as filtersSchemaWith } from '@dataworkz/client';
import { z } from 'zod';

/** The client's structured filters, as the tools' input describes them to the model. */
export const filtersSchema = filtersSchemaWith<z.ZodType<FilterFields>>(
  z,
  'Field names come from list_qna_systems.',
);
