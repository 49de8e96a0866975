import type { DatabaseConfig } from '../../src/config/schema.js';
import { missingPostgres, POSTGRES_SERVER } from '../local-servers.js';
import type { ConformanceEngine } from './engine.js';
import {
  POSTGRES_MORE_REFUSALS,
  POSTGRES_SESSION,
  type PostgresFixture,
  postgresEngine,
  setupPostgresFixture,
} from './postgres-engine.js';

type RedshiftConfig = Extract<DatabaseConfig, { type: 'redshift' }>;

/** A Redshift entry on the local PostgreSQL server: no TLS, trust authentication (the password is never asked for). */
function redshiftConfig(fields: Partial<RedshiftConfig> & { name: string }): RedshiftConfig {
  return {
    type: 'redshift',
    host: POSTGRES_SERVER.host,
    port: POSTGRES_SERVER.port,
    user: POSTGRES_SERVER.user,
    password: 'unused-by-trust',
    database: POSTGRES_SERVER.database,
    auth_mode: 'password',
    sslmode: 'disable',
    ...fields,
  };
}

/**
 * The Redshift engine runs against the local PostgreSQL server, which speaks the same wire
 * protocol: no Redshift cluster can run here. It checks nao's Redshift code path (its config,
 * its Redshift-compatible catalog and type queries, its preamble without IntervalStyle) with the
 * PostgreSQL entry's SQL, not Redshift's own behaviour (its TRUNCATE, which commits, and UNLOAD
 * are the role's to restrict: see redshift-database.ts).
 */
export const redshiftEngine: ConformanceEngine<PostgresFixture> = {
  label: 'Redshift (on the local PostgreSQL)',
  dialect: 'redshift',
  missing: missingPostgres,
  setup: () => setupPostgresFixture((name, schema) => redshiftConfig({ name, schema_name: schema })),
  // Without PostgreSQL's statement guard (postgres-statement-guard.ts): a query may change its session.
  sql: { ...postgresEngine.sql, moreRefusals: POSTGRES_MORE_REFUSALS, session: POSTGRES_SESSION },
  brokenTargets: [
    {
      label: 'a closed port',
      config: redshiftConfig({
        name: 'broken',
        port: 1,
        user: 'nao_reader',
        password: 'hunter2-secret',
        database: 'shop',
      }),
      target: '127.0.0.1:1/shop as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a database that does not exist',
      config: redshiftConfig({
        name: 'broken',
        password: 'hunter2-secret',
        database: 'nao_no_such_database',
      }),
      target: '127.0.0.1:5432/nao_no_such_database as user postgres',
      reason: 'database "nao_no_such_database" does not exist',
    },
    {
      label: 'a schema that does not exist',
      config: redshiftConfig({
        name: 'broken',
        password: 'hunter2-secret',
        schema_name: 'nao_no_such_schema',
      }),
      target: '127.0.0.1:5432/test as user postgres',
      reason: 'schema "nao_no_such_schema" does not exist',
    },
    {
      label: 'IAM authentication',
      config: redshiftConfig({
        name: 'broken',
        auth_mode: 'iam',
        region_name: 'us-east-1',
        aws_secret_access_key: 'hunter2-secret',
      }),
      target: '127.0.0.1:5432/test as user postgres',
      reason: 'with a user and password only',
    },
    {
      label: 'an SSH tunnel, which nao does not open',
      config: redshiftConfig({
        name: 'broken',
        ssh_tunnel: {
          ssh_host: 'bastion',
          ssh_port: 22,
          ssh_username: 'ops',
          ssh_private_key_path: '/k',
          ssh_private_key_passphrase: 'hunter2-secret',
        },
      }),
      target: '127.0.0.1:5432/test as user postgres',
      reason: 'does not open SSH tunnels',
    },
    {
      label: 'TLS required by sslmode, which the server does not offer',
      config: redshiftConfig({ name: 'broken', password: 'hunter2-secret', sslmode: 'require' }),
      target: '127.0.0.1:5432/test as user postgres',
      reason: 'does not support SSL',
    },
  ],
};
