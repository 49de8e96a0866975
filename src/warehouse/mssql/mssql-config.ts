import { z } from 'zod';
import { lenientBoolean, nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/**
 * How nao's TDS driver (tedious) secures the connection; the original nao leaves this to its
 * ODBC driver's connection string (`Encrypt=yes` with ODBC Driver 18). nao's own keys.
 */
export const tdsTlsFields = {
  encrypt: lenientBoolean().default(true),
  trust_server_certificate: lenientBoolean().default(false),
};

/** A text the entry must have, saying what to give when the key is missing. */
export function required(what: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `missing: give ${what}` : undefined) })
    .trim()
    .min(1, 'must not be empty');
}

export const mssqlDatabase = {
  type: 'mssql',
  schema: z.object({
    type: z.literal('mssql'),
    ...commonFields,
    host: required("the server's host name"),
    port,
    database: required('the database to query'),
    user: required('the SQL login nao signs in with'),
    password: z.string({
      error: (issue) => (issue.input === undefined ? "missing: give the login's password" : undefined),
    }),
    // The original's ODBC driver name (FreeTDS, ODBC Driver 18 for SQL Server): nao speaks TDS itself.
    driver: z.string().optional(),
    // The schema listed (and synced by the original); SQL Server has no per-session search path.
    schema_name: nonEmpty.optional(),
    ...tdsTlsFields,
  }),
} as const;
