import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { WarehouseError } from '../warehouse-error.js';

export type MotherDuckDatabaseConfig = Extract<DatabaseConfig, { type: 'motherduck' }>;

/**
 * MotherDuck is reached through DuckDB's `md:` path, which needs DuckDB's motherduck extension.
 * nao's DuckDB (@duckdb/node-api) bundles only json, parquet and icu, and nao never downloads
 * extensions (its DuckDB runs with external access off), so a MotherDuck database cannot open:
 * the error says so and how to query the data anyway. The token is never part of it.
 */
export function openMotherDuckDatabase(config: MotherDuckDatabaseConfig): Promise<Database> {
  const path = `md:${config.database ?? ''}`;
  return Promise.reject(
    new WarehouseError({
      code: 'CONNECTION_FAILED',
      database: config.name,
      dialect: 'duckdb',
      message:
        `Could not open database "${config.name}" (motherduck at ${path}): DuckDB's MotherDuck extension is not ` +
        'available to this nao (its DuckDB bundles only the json, parquet and icu extensions and nao does not ' +
        'download others). Export the data to a local DuckDB file (in the DuckDB CLI: ' +
        `ATTACH '${path}' AS md; ATTACH 'warehouse.duckdb' AS local; COPY FROM DATABASE md TO local) and configure ` +
        'that file as a `type: duckdb` database in nao_config.yaml.',
    }),
  );
}
