import { z } from 'zod';
import { commonFields, nonEmpty, schemaNameAsSchema } from './fields.js';
import { privilegedRoleField, requireUrlOrDatabase, serverFields } from './server-fields.js';

export const postgresDatabase = {
  type: 'postgres',
  schema: z.preprocess(
    schemaNameAsSchema,
    z
      .object({
        type: z.literal('postgres'),
        ...commonFields,
        ...serverFields,
        ...privilegedRoleField,
        schema: nonEmpty.optional(),
      })
      .superRefine(requireUrlOrDatabase),
  ),
  extraKeys: { schema: ['schema_name'] },
} as const;
