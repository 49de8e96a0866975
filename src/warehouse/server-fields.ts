import { z } from 'zod';
import { nonEmpty, port } from '../yaml-fields/lenient-fields.js';

/** Connection fields of a server database: a `url`, or the separate parts. */
export const serverFields = {
  url: nonEmpty.optional(),
  host: nonEmpty.optional(),
  port,
  user: z.string().optional(),
  password: z.string().optional(),
  database: nonEmpty.optional(),
};

/**
 * `allow_privileged_role: true` lets nao connect as a role that can reach the server's files
 * or settings (a PostgreSQL superuser, a MariaDB account with FILE or SUPER), with a warning on
 * every run; without it such a role is refused (warehouse/privileged-role.ts).
 */
export const privilegedRoleField = {
  allow_privileged_role: z.boolean().optional(),
};

export function requireUrlOrDatabase(
  value: { url?: string | undefined; database?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.url === undefined && value.database === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'give either `url` or `host`/`database` (with optional port, user, password)',
    });
  }
}
