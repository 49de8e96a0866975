import { z } from 'zod';
import { nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields, schemaNameAsSchema } from '../database-fields.js';

/** The original nao's `authenticator` values; a private key alone means key-pair (JWT) log-in. */
export const SNOWFLAKE_AUTHENTICATORS = [
  'externalbrowser',
  'username_password_mfa',
  'jwt_token',
  'oauth',
] as const;

/**
 * The original nao's Snowflake entry (`username`, `account_id`, `database` required; `password`,
 * `schema_name`/`schema`, `warehouse`, `private_key_path`, `passphrase`, `authenticator`), plus
 * `role` and, for a private endpoint or a proxy, `host`/`port`/`protocol` in place of
 * `<account_id>.snowflakecomputing.com:443` over https.
 */
export const snowflakeDatabase = {
  type: 'snowflake',
  schema: z.preprocess(
    schemaNameAsSchema,
    z.object({
      type: z.literal('snowflake'),
      ...commonFields,
      username: nonEmpty,
      account_id: nonEmpty,
      password: z.string().optional(),
      database: nonEmpty,
      schema: nonEmpty.optional(),
      warehouse: nonEmpty.optional(),
      role: nonEmpty.optional(),
      private_key_path: nonEmpty.optional(),
      passphrase: z.string().optional(),
      authenticator: z.enum(SNOWFLAKE_AUTHENTICATORS).optional(),
      host: nonEmpty.optional(),
      port,
      protocol: z.enum(['https', 'http']).optional(),
    }),
  ),
  extraKeys: { schema: ['schema_name'] },
} as const;
