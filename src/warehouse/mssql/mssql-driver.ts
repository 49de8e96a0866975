/**
 * tedious, the TDS driver behind SQL Server and Fabric warehouses: loaded only when such a
 * warehouse is configured, and configured from nao's fields (host, port, database, the
 * credentials of the auth mode, TLS).
 */
import type { ConnectionConfiguration } from 'tedious';
import type { DatabaseConfig } from '../database-config.js';
import { decodeDecimalsExactly } from './mssql-exact-decimals.js';

export type Tedious = typeof import('tedious');
export type TdsDatabaseConfig = Extract<DatabaseConfig, { type: 'mssql' | 'fabric' }>;

/**
 * Loads tedious (a CommonJS module: its exports may sit on `default`), with its DECIMAL,
 * NUMERIC and MONEY values decoded as exact text (mssql-exact-decimals.ts).
 */
export async function importTedious(): Promise<Tedious> {
  const loaded = (await import('tedious')) as Tedious & { default?: Tedious };
  decodeDecimalsExactly();
  return loaded.default ?? loaded;
}

/** A setting nao cannot use, as a message naming the key and what to do. */
export class UnusableSetting extends Error {}

function authentication(config: TdsDatabaseConfig): ConnectionConfiguration['authentication'] {
  if (config.type === 'mssql' || config.auth_mode === 'sql_password') {
    return { type: 'default', options: { userName: config.user ?? '', password: config.password ?? '' } };
  }
  switch (config.auth_mode) {
    case 'azure_service_principal':
      if (!config.tenant_id) {
        throw new UnusableSetting(
          'auth_mode azure_service_principal needs `tenant_id` (the Azure AD tenant of the application) with nao',
        );
      }
      return {
        type: 'azure-active-directory-service-principal-secret',
        options: {
          clientId: config.client_id ?? '',
          clientSecret: config.client_secret ?? '',
          tenantId: config.tenant_id,
        },
      };
    case 'azure_cli':
      // DefaultAzureCredential: the environment's service principal or managed identity, else `az login`.
      return { type: 'azure-active-directory-default', options: {} };
    case 'azure_interactive':
      throw new UnusableSetting(
        'auth_mode azure_interactive opens a browser, which nao runs cannot do: use azure_cli (after `az login`) or azure_service_principal',
      );
  }
}

/** tedious' configuration of one connection: UTC dates, no client-side row buffering, no default request limit. */
export function tdsConnectionConfig(config: TdsDatabaseConfig): ConnectionConfiguration {
  return {
    server: config.host,
    authentication: authentication(config),
    options: {
      port: config.port ?? 1433,
      database: config.database,
      encrypt: config.encrypt,
      trustServerCertificate: config.trust_server_certificate,
      useUTC: true,
      appName: 'nao',
      connectTimeout: 15_000,
      requestTimeout: 0,
      rowCollectionOnDone: false,
      rowCollectionOnRequestCompletion: false,
      useColumnNames: false,
    },
  };
}
