import { z } from 'zod';
import { nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/** The original nao's StarRocks entry: its frontend's MySQL-protocol port (9030 when absent). */
export const starrocksDatabase = {
  type: 'starrocks',
  schema: z.object({
    type: z.literal('starrocks'),
    ...commonFields,
    host: nonEmpty,
    port,
    user: nonEmpty,
    password: z.string().default(''),
    /** Connected to as `catalog.database`; StarRocks' default_catalog when absent. */
    catalog: nonEmpty.nullish(),
    database: nonEmpty.nullish(),
  }),
  // `schema_name` only narrows the original's context sync.
  extraKeys: { database: ['schema_name'] },
} as const;
