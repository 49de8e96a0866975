import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/** The original nao's default: a DuckDB entry without `path` is an empty in-memory database. */
export const IN_MEMORY = ':memory:';

export const duckdbDatabase = {
  type: 'duckdb',
  /** Its adapter plans reference SQL ahead of the runs (Database.plan): `nao test validate` opens it. */
  plannedAhead: true,
  schema: z.object({ type: z.literal('duckdb'), ...commonFields, path: nonEmpty.default(IN_MEMORY) }),
} as const;
