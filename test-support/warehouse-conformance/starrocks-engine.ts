import type { DatabaseConfig } from '../../src/config/schema.js';
import type { ConformanceEngine } from './engine.js';
import {
  MYSQL_MORE_REFUSALS,
  MYSQL_SERVER,
  MYSQL_SESSION,
  type MysqlFixture,
  missingMysql,
  mysqlEngine,
  setupMysqlFixture,
} from './mysql-engine.js';

type StarRocksConfig = Extract<DatabaseConfig, { type: 'starrocks' }>;

function starrocksConfig(fields: Partial<StarRocksConfig> & { name: string }): StarRocksConfig {
  return { type: 'starrocks', ...MYSQL_SERVER, password: '', ...fields };
}

/**
 * The StarRocks engine runs against the local MariaDB server as the MySQL-protocol stand-in:
 * no StarRocks can run here. Since nao finds no StarRocks behind the protocol (no
 * current_version()), it runs the MySQL/MariaDB path: this checks the StarRocks config, its
 * connection and the MySQL code it shares, with the mysql entry's SQL. What differs on a real
 * StarRocks (no read-only transaction: only SELECT-only privileges stop writes; query_timeout)
 * is not exercised here.
 */
export const starrocksEngine: ConformanceEngine<MysqlFixture> = {
  label: 'StarRocks (on the local MariaDB)',
  dialect: 'starrocks',
  missing: missingMysql,
  setup: () => setupMysqlFixture((name, database) => starrocksConfig({ name, database })),
  // Without the MySQL statement guard (mysql-statement-guard.ts): a query may change its session.
  sql: { ...mysqlEngine.sql, moreRefusals: MYSQL_MORE_REFUSALS, session: MYSQL_SESSION },
  brokenTargets: [
    {
      label: 'a closed port',
      config: starrocksConfig({
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
      label: 'a wrong password',
      config: starrocksConfig({ name: 'broken', password: 'hunter2-secret', database: 'test' }),
      target: '127.0.0.1:3306/test as user root',
      reason: 'Access denied',
    },
    {
      label: 'a catalog and database that do not exist',
      config: starrocksConfig({ name: 'broken', catalog: 'default_catalog', database: 'shop' }),
      target: '127.0.0.1:3306/default_catalog.shop as user root',
      reason: "Unknown database 'default_catalog.shop'",
    },
  ],
};
