import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/**
 * The original nao's Athena fields: `region_name`, the `s3_staging_dir` results are written to,
 * the `work_group` (primary), the default schema (`schema_name`, default `default`), and
 * credentials as static keys or a `profile_name` of the shared AWS files (else the SDK's chain).
 * `catalog` (AwsDataCatalog) and `endpoint` (a private or test endpoint) are nao's own.
 */
export const athenaDatabase = {
  type: 'athena',
  schema: z
    .object({
      type: z.literal('athena'),
      ...commonFields,
      region_name: nonEmpty,
      s3_staging_dir: z
        .string()
        .trim()
        .regex(/^s3:\/\/[^/]+/, 'must be an s3://bucket/path url'),
      work_group: nonEmpty.nullish(),
      schema_name: nonEmpty.nullish(),
      catalog: nonEmpty.optional(),
      aws_access_key_id: nonEmpty.nullish(),
      aws_secret_access_key: nonEmpty.nullish(),
      aws_session_token: nonEmpty.nullish(),
      profile_name: nonEmpty.nullish(),
      endpoint: z.string().trim().url().optional(),
    })
    .superRefine((value, ctx) => {
      if ((value.aws_access_key_id == null) !== (value.aws_secret_access_key == null)) {
        ctx.addIssue({
          code: 'custom',
          message: 'give both `aws_access_key_id` and `aws_secret_access_key`, or neither',
        });
      }
    }),
} as const;
