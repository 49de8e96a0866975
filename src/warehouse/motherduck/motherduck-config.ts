import { z } from 'zod';
import { lenientBoolean, nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/** The original nao's MotherDuck entry (DuckDB's cloud, reached through DuckDB's `md:` path). */
export const motherduckDatabase = {
  type: 'motherduck',
  schema: z.object({
    type: z.literal('motherduck'),
    ...commonFields,
    /** The account's default database when absent. */
    database: nonEmpty.nullish(),
    /** The `motherduck_token` environment variable when absent. */
    token: z.string().nullish(),
    read_only: lenientBoolean().default(false),
  }),
} as const;
