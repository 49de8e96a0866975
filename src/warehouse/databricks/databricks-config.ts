import { z } from 'zod';
import { nonEmpty } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/** `adb-123.azuredatabricks.net`, optionally with `https://` before it, a `:port` or a final `/`. */
const SERVER_HOSTNAME = /^(?:https:\/\/)?[A-Za-z0-9.-]+(?::\d{1,5})?\/?$/;

/**
 * A Databricks SQL warehouse or cluster, with the original nao's keys. `temp_schema` is read
 * as known only: the original stages data there, nao never writes.
 */
export const databricksDatabase = {
  type: 'databricks',
  schema: z.object({
    type: z.literal('databricks'),
    ...commonFields,
    server_hostname: nonEmpty.regex(
      SERVER_HOSTNAME,
      'expected the server hostname of the workspace, e.g. adb-1234567890123456.7.azuredatabricks.net',
    ),
    http_path: nonEmpty,
    access_token: nonEmpty,
    catalog: nonEmpty.nullish(),
    schema_name: nonEmpty.nullish(),
    temp_schema: z.string().nullish(),
  }),
} as const;
