import { z } from 'zod';
import { commonFields, nonEmpty, schemaNameAsSchema } from './fields.js';
import { requireUrlOrDatabase, serverFields } from './server-fields.js';

export const postgresDatabase = {
  type: 'postgres',
  schema: z.preprocess(
    schemaNameAsSchema,
    z
      .object({ type: z.literal('postgres'), ...commonFields, ...serverFields, schema: nonEmpty.optional() })
      .superRefine(requireUrlOrDatabase),
  ),
  extraKeys: { schema: ['schema_name'] },
} as const;
