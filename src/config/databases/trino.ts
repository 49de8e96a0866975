import { z } from 'zod';
import { commonFields, nonEmpty, port } from './fields.js';

/** A schema spelled `schema` or, as the original nao spells it, `schema_name`; `schema` wins. */
function schemaNameAsSchema(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { schema_name: schemaName, ...rest } = value as Record<string, unknown>;
  return rest.schema === undefined && schemaName !== undefined && schemaName !== null
    ? { ...rest, schema: schemaName }
    : rest;
}

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
  keys: ['host', 'port', 'catalog', 'user', 'password', 'schema', 'schema_name'],
} as const;
