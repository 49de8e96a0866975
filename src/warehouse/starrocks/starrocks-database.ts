import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { openMysqlFamilyDatabase } from '../mysql/mysql-database.js';

export type StarRocksDatabaseConfig = Extract<DatabaseConfig, { type: 'starrocks' }>;

/**
 * Opens a StarRocks frontend through the MySQL code (mysql2: StarRocks speaks the MySQL
 * protocol). Each query gets `query_timeout` from its time limit and is stopped with `KILL
 * QUERY`; a capped result stops streaming early.
 *
 * What the engine does not cover: StarRocks has no read-only session or transaction (nor the XA
 * transactions nao uses on MySQL/MariaDB), so nothing but the user's privileges stops a write.
 * Give nao a user granted SELECT only; its privilege refusals are reported as read-only refusals.
 */
export function openStarRocksDatabase(config: StarRocksDatabaseConfig): Promise<Database> {
  // As the original connects: `catalog.database`, the default catalog when only a database is named.
  const database =
    config.database == null
      ? undefined
      : config.catalog
        ? `${config.catalog}.${config.database}`
        : config.database;
  return openMysqlFamilyDatabase({
    name: config.name,
    dialect: 'starrocks',
    fields: { host: config.host, port: config.port, user: config.user, password: config.password, database },
    defaultPort: 9030,
  });
}
