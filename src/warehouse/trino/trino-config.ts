import { z } from 'zod';
import { nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields, schemaNameAsSchema } from '../database-fields.js';

/**
 * The original nao's Trino fields: the coordinator's `host` (a name, or a url with its
 * `https://` scheme) and `port` (8080), the `catalog` queries run in, the `user`, and an
 * optional `password` (HTTP basic authentication) and default schema.
 */
export const trinoDatabase = {
  type: 'trino',
  schema: z.preprocess(
    schemaNameAsSchema,
    z.object({
      type: z.literal('trino'),
      ...commonFields,
      host: nonEmpty,
      port,
      catalog: nonEmpty,
      user: nonEmpty,
      password: z.string().optional(),
      schema: nonEmpty.optional(),
    }),
  ),
  extraKeys: { schema: ['schema_name'] },
} as const;
