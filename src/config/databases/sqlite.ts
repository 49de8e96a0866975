import { z } from 'zod';
import { commonFields, nonEmpty } from './fields.js';

export const sqliteDatabase = {
  type: 'sqlite',
  schema: z.object({ type: z.literal('sqlite'), ...commonFields, path: nonEmpty }),
} as const;
