import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

export const sqliteDatabase = {
  type: 'sqlite',
  /** Its adapter plans reference SQL ahead of the runs (Database.plan): `nao test validate` opens it. */
  plannedAhead: true,
  schema: z.object({ type: z.literal('sqlite'), ...commonFields, path: nonEmpty }),
} as const;
