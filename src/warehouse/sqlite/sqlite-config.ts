import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

export const sqliteDatabase = {
  type: 'sqlite',
  schema: z.object({ type: z.literal('sqlite'), ...commonFields, path: nonEmpty }),
} as const;
