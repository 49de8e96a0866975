import { z } from 'zod';
import { lenientNumber, nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/** The original nao's Redshift entry; nao connects with `auth_mode: password` (the others fail at open, saying so). */
export const redshiftDatabase = {
  type: 'redshift',
  schema: z
    .object({
      type: z.literal('redshift'),
      ...commonFields,
      host: nonEmpty,
      /** 5439 when absent. */
      port,
      database: nonEmpty,
      auth_mode: z.enum(['password', 'iam', 'azure_entra_id']).default('password'),
      user: z.string().optional(),
      password: z.string().optional(),
      schema_name: nonEmpty.optional(),
      sslmode: z
        .enum(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'])
        .default('require'),
      ssh_tunnel: z
        .object({
          ssh_host: nonEmpty,
          ssh_port: lenientNumber(z.number().int().optional()),
          ssh_username: nonEmpty,
          ssh_private_key_path: nonEmpty,
          ssh_private_key_passphrase: z.string().nullish(),
        })
        .nullish(),
      cluster_id: z.string().nullish(),
      region_name: z.string().nullish(),
      aws_access_key_id: z.string().nullish(),
      aws_secret_access_key: z.string().nullish(),
      aws_session_token: z.string().nullish(),
      profile_name: z.string().nullish(),
    })
    .superRefine((value, ctx) => {
      // As the original validates: what each authentication mode needs.
      if (value.auth_mode === 'password' && (!value.user || !value.password)) {
        ctx.addIssue({
          code: 'custom',
          message: "`user` and `password` are required when auth_mode is 'password'",
        });
      }
      if (value.auth_mode === 'iam' && (!value.user || !value.region_name)) {
        ctx.addIssue({
          code: 'custom',
          message: "`user` and `region_name` are required when auth_mode is 'iam'",
        });
      }
    }),
} as const;
