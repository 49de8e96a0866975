import { z } from 'zod';
import { commonFields, nonEmpty } from './fields.js';
import { requireUrlOrDatabase, SERVER_KEYS, serverFields } from './server-fields.js';

export const postgresDatabase = {
  type: 'postgres',
  schema: z.preprocess(
    // The original nao spells the schema `schema_name`; both are read, `schema` wins.
    (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const { schema_name: schemaName, ...rest } = value as Record<string, unknown>;
      return rest.schema === undefined && schemaName !== undefined && schemaName !== null
        ? { ...rest, schema: schemaName }
        : rest;
    },
    z
      .object({ type: z.literal('postgres'), ...commonFields, ...serverFields, schema: nonEmpty.optional() })
      .superRefine(requireUrlOrDatabase),
  ),
  keys: [...SERVER_KEYS, 'schema', 'schema_name'],
} as const;
