import { z } from 'zod';
import { nonEmpty, port } from './fields.js';

/** Connection fields of a server database: a `url`, or the separate parts. */
export const serverFields = {
  url: nonEmpty.optional(),
  host: nonEmpty.optional(),
  port,
  user: z.string().optional(),
  password: z.string().optional(),
  database: nonEmpty.optional(),
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
