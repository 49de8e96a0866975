import { z } from 'zod';
import { nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { isMapping } from '../../yaml-fields/mapping.js';
import { commonFields } from '../database-fields.js';
import { required, tdsTlsFields } from './mssql-config.js';

export const FABRIC_AUTH_MODES = [
  'sql_password',
  'azure_interactive',
  'azure_cli',
  'azure_service_principal',
] as const;

/** Earlier spellings of the original's Fabric keys, still found in projects: `server`, `auth_method`. */
function renameEarlierKeys(value: unknown): unknown {
  if (!isMapping(value)) return value;
  const { server, auth_method: authMethod, ...rest } = value;
  return {
    ...rest,
    ...(rest.host === undefined && server !== undefined ? { host: server } : {}),
    ...(rest.auth_mode === undefined && authMethod !== undefined ? { auth_mode: authMethod } : {}),
  };
}

/** A Microsoft Fabric Data Warehouse or Lakehouse SQL analytics endpoint, spoken to over TDS. */
export const fabricDatabase = {
  type: 'fabric',
  schema: z.preprocess(
    renameEarlierKeys,
    z
      .object({
        type: z.literal('fabric'),
        ...commonFields,
        host: required("the SQL endpoint's host name (…datawarehouse.fabric.microsoft.com)"),
        port,
        database: required('the warehouse or lakehouse name'),
        auth_mode: z.enum(FABRIC_AUTH_MODES).default('sql_password'),
        user: z.string().optional(),
        password: z.string().optional(),
        client_id: z.string().optional(),
        client_secret: z.string().optional(),
        tenant_id: z.string().optional(),
        schema_name: nonEmpty.optional(),
        driver: z.string().optional(),
        ...tdsTlsFields,
      })
      .superRefine((value, ctx) => {
        const need = (keys: ('user' | 'password' | 'client_id' | 'client_secret')[]) => {
          for (const key of keys) {
            if (!value[key]) {
              ctx.addIssue({
                code: 'custom',
                path: [key],
                message: `required when auth_mode is ${value.auth_mode}`,
              });
            }
          }
        };
        if (value.auth_mode === 'sql_password') need(['user', 'password']);
        if (value.auth_mode === 'azure_service_principal') need(['client_id', 'client_secret']);
      }),
  ),
  extraKeys: { host: ['server'], auth_mode: ['auth_method'] },
} as const;
