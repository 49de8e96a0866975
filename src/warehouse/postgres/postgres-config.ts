import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields, schemaNameAsSchema } from '../database-fields.js';
import { privilegedRoleField, requireUrlOrDatabase, serverFields } from '../server-fields.js';

export const postgresDatabase = {
  type: 'postgres',
  /** Its adapter plans reference SQL ahead of the runs (Database.plan): `nao test validate` opens it. */
  plannedAhead: true,
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
