import { z } from 'zod';
import { commonFields } from '../database-fields.js';
import { privilegedRoleField, requireUrlOrDatabase, serverFields } from '../server-fields.js';

export const mysqlDatabase = {
  type: 'mysql',
  /** Its adapter plans reference SQL ahead of the runs (Database.plan): `nao test validate` opens it. */
  plannedAhead: true,
  schema: z
    .object({ type: z.literal('mysql'), ...commonFields, ...serverFields, ...privilegedRoleField })
    .superRefine(requireUrlOrDatabase),
  // In MySQL a schema is a database: the original's `schema_name` only narrows its context sync.
  extraKeys: { database: ['schema_name'] },
} as const;
