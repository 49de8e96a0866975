import type { ConnectionOptions } from 'node:tls';
import { describeServerTarget } from '../connection-target.js';
import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { openPostgresFamilyDatabase } from '../postgres/postgres-database.js';
import { WarehouseError } from '../warehouse-error.js';

export type RedshiftDatabaseConfig = Extract<DatabaseConfig, { type: 'redshift' }>;

const DEFAULT_PORT = 5439;

/**
 * Opens a Redshift cluster or workgroup through the PostgreSQL code (pg: the same wire
 * protocol). Every query runs alone in `BEGIN READ ONLY … ROLLBACK` with `SET LOCAL
 * statement_timeout`, so the server refuses writes and DDL; a stopped query is cancelled with
 * pg_cancel_backend.
 *
 * What the engine does not cover: Redshift's TRUNCATE commits the transaction it runs in, and
 * UNLOAD writes to S3 with the role's IAM rights. Give nao a user that owns no tables (only
 * owners may TRUNCATE) and whose cluster role cannot write to S3.
 */
export function openRedshiftDatabase(config: RedshiftDatabaseConfig): Promise<Database> {
  const fields = {
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: config.database,
  };
  const refuse = (reason: string) =>
    new WarehouseError({
      code: 'CONNECTION_FAILED',
      database: config.name,
      dialect: 'redshift',
      message: `Could not connect to database "${config.name}" (redshift at ${describeServerTarget(fields, DEFAULT_PORT)}): ${reason}`,
    });
  if (config.auth_mode !== 'password') {
    return Promise.reject(
      refuse(
        `nao signs in to Redshift with a user and password only, not with auth_mode ${config.auth_mode}. ` +
          'Set `auth_mode: password` with the `user` and `password` of a database user in nao_config.yaml.',
      ),
    );
  }
  if (config.ssh_tunnel) {
    return Promise.reject(
      refuse(
        'nao does not open SSH tunnels. Start one yourself (ssh -L 5439:<cluster endpoint>:5439 <bastion>) and ' +
          'point `host`/`port` at its local end, without `ssh_tunnel`.',
      ),
    );
  }
  return openPostgresFamilyDatabase({
    name: config.name,
    dialect: 'redshift',
    fields,
    defaultPort: DEFAULT_PORT,
    schema: config.schema_name,
    ssl: sslOf(config.sslmode),
  });
}

/**
 * libpq's sslmode in pg's terms: `require` encrypts without checking the certificate (as
 * libpq does), the verify modes check it; pg cannot fall back to plain text, so `prefer`
 * encrypts (every Redshift endpoint accepts TLS) and `allow` does not.
 */
function sslOf(mode: RedshiftDatabaseConfig['sslmode']): boolean | ConnectionOptions {
  switch (mode) {
    case 'disable':
    case 'allow':
      return false;
    case 'prefer':
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
    case 'verify-full':
      return { rejectUnauthorized: true };
  }
}
