import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../../src/config/schema.js';
import type { Database } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/open-database.js';
import type { ConformanceEngine, EngineFixture } from './engine.js';

export const MYSQL_SERVER = { host: '127.0.0.1', port: 3306, user: 'root' };

export interface MysqlFixture extends EngineFixture {
  /** The fixture's own database, which nao is connected to. */
  schema: string;
  /** A connection of the test itself, with every right, in the fixture's database. */
  admin: mysql.Connection;
}

export async function missingMysql(): Promise<string | undefined> {
  try {
    const connection = await mysql.createConnection({ ...MYSQL_SERVER, connectTimeout: 3000 });
    await connection.end();
    return undefined;
  } catch {
    return `no MySQL/MariaDB server at ${MYSQL_SERVER.host}:${MYSQL_SERVER.port}`;
  }
}

/** The suite connects as root, which nao allows only when told (mysql-database.test.ts tries both). */
const mysqlConfig = (name: string, database: string): DatabaseConfig => ({
  type: 'mysql',
  name,
  ...MYSQL_SERVER,
  database,
  allow_privileged_role: true,
});

/**
 * The fixture in a database of its own, dropped by cleanup(); `configOf` says how nao is
 * configured on it (another engine of the MySQL protocol opens it as its own type). Beside it, what only this engine
 * has: a MyISAM table (no transactions at all) and a procedure that drops a table.
 */
export async function setupMysqlFixture(
  configOf: (name: string, database: string) => DatabaseConfig = mysqlConfig,
): Promise<MysqlFixture> {
  const schema = `nao_wh_${randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection({ ...MYSQL_SERVER, multipleStatements: true });
  await admin.query(`
    CREATE DATABASE ${schema};
    USE ${schema};
    SET time_zone = '+00:00', max_recursive_iterations = 100000;
    CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(10,2)) ENGINE=InnoDB;
    INSERT INTO items WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
      SELECT i, CONCAT('item ', i), i * 1.25 FROM n;
    CREATE VIEW expensive AS SELECT id, price FROM items WHERE price > 100;
    CREATE TABLE legacy (a INT) ENGINE=MyISAM;
    INSERT INTO legacy VALUES (1), (2);
    CREATE PROCEDURE dropper() BEGIN DROP TABLE items; END;`);
  const open = (name: string): Promise<Database> => openDatabase(configOf(name, schema));
  return {
    db: await open('conformance'),
    schema,
    admin,
    open,
    snapshot: async () =>
      (
        await admin.query(
          `SELECT (SELECT md5(group_concat(id, name, price ORDER BY id)) FROM items) AS items,
                  (SELECT group_concat(a ORDER BY a) FROM legacy) AS legacy,
                  (SELECT group_concat(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES
                    WHERE TABLE_SCHEMA = ?) AS tables,
                  (SELECT group_concat(SCHEMA_NAME) FROM information_schema.SCHEMATA
                    WHERE SCHEMA_NAME LIKE 'nao\\_intruder%') AS databases_made,
                  (SELECT count(*) FROM mysql.servers) AS servers`,
          [schema],
        )
      )[0],
    running: async (marker) => {
      const [rows] = await admin.query<mysql.RowDataPacket[]>(
        "SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
        [`%${marker}%`],
      );
      return Number(rows[0]?.n);
    },
    async cleanup() {
      await admin.query(`DROP DATABASE IF EXISTS ${schema}`);
      await admin.end();
    },
  };
}

/** Writes to a table without transactions, and what would commit nao's transaction implicitly. */
export const MYSQL_MORE_REFUSALS = [
  'INSERT INTO legacy VALUES (3)',
  'DELETE FROM legacy',
  'CREATE DATABASE nao_intruder',
  'LOCK TABLES items WRITE',
  'CALL dropper()',
  'SELECT * FROM items FOR UPDATE',
  'COMMIT',
];

/**
 * Session changes the server lets a query make, undone before the next query. The MySQL
 * statement guard refuses them outright; StarRocks (without the guard) runs them.
 */
export const MYSQL_SESSION = {
  change: ['SET SESSION TRANSACTION READ WRITE', 'SET autocommit = 0', "SET time_zone = '+05:00'"],
  check: 'SELECT @@session.time_zone AS zone, @@session.autocommit AS ac',
  expected: [['+00:00', 1]],
  stillRefused: "INSERT INTO items VALUES (99999, 'new', 1)",
};

const NO_ZONES =
  'MySQL/MariaDB have no time-zone type; TIMESTAMP reads in UTC, the session zone nao pins (mysql-database.test.ts)';

/**
 * MariaDB as root, which `allow_privileged_role` lets in: what the server would let root do
 * (`SELECT … INTO OUTFILE`, `SET GLOBAL`) nao's statement guard refuses, tried in
 * mysql-role.test.ts as root and as a SELECT-only account.
 */
export const mysqlEngine: ConformanceEngine<MysqlFixture> = {
  label: 'MySQL/MariaDB',
  dialect: 'mysql',
  missing: missingMysql,
  setup: () => setupMysqlFixture(),
  sql: {
    values: {
      'small integer': { expression: 'CAST(42 AS SIGNED)', type: 'INT' },
      'integer 2^53+1': { expression: 'CAST(9007199254740993 AS SIGNED)', type: 'BIGINT' },
      'smallest 64-bit integer': { expression: 'CAST(-9223372036854775808 AS SIGNED)', type: 'BIGINT' },
      'DECIMAL(38,10)': {
        expression: "CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38,10))",
        type: 'DECIMAL(38,10)',
      },
      'decimal keeping its scale': { expression: "CAST('12.50' AS DECIMAL(5,2))", type: 'DECIMAL(5,2)' },
      'double 0.1': { expression: '0.1e0', type: 'DOUBLE' },
      'single-precision 0.1': { expression: 'CAST(0.1 AS FLOAT)', type: 'FLOAT' },
      NaN: { none: 'MySQL/MariaDB have no NaN' },
      Infinity: { none: 'MySQL/MariaDB have no infinite floating values' },
      '-Infinity': { none: 'MySQL/MariaDB have no infinite floating values' },
      'NULL of a typed column': { expression: 'CAST(NULL AS SIGNED)', type: 'INT' },
      'text with accents and emoji': { expression: "_utf8mb4'héllo 😀'", type: 'VARCHAR' },
      true: { none: 'BOOLEAN is TINYINT(1) in MySQL/MariaDB: TRUE is the integer 1' },
      false: { none: 'BOOLEAN is TINYINT(1) in MySQL/MariaDB: FALSE is the integer 0' },
      date: { expression: "DATE '2024-01-02'", type: 'DATE' },
      'timestamp to the microsecond': {
        expression: "CAST('2024-01-02 03:04:05.123456' AS DATETIME(6))",
        type: 'DATETIME(6)',
      },
      'timestamp on a whole second': {
        expression: "CAST('2024-01-02 03:04:05' AS DATETIME)",
        type: 'DATETIME',
      },
      'timestamp on half a second': {
        expression: "CAST('2024-01-02 03:04:05.5' AS DATETIME(6))",
        type: 'DATETIME(6)',
      },
      'timestamp with time zone (+02) in UTC': { none: NO_ZONES },
      'binary 61 62 00 ff': { expression: "x'616200ff'", type: 'VARBINARY' },
    },
    refusals: {
      'data writes': [
        "INSERT INTO items VALUES (99999, 'new', 1)",
        "UPDATE items SET name = 'changed'",
        'DELETE FROM items',
      ],
      DDL: [
        'CREATE TABLE intruder (a INT)',
        'CREATE TEMPORARY TABLE intruder (a INT)',
        'DROP TABLE items',
        'ALTER TABLE items ADD COLUMN extra INT',
        'TRUNCATE TABLE items',
        'DROP VIEW expensive',
        'RENAME TABLE items TO renamed',
      ],
      // MySQL/MariaDB reach another server through the FEDERATED engine's servers.
      'attaching another database': [
        "CREATE SERVER nao_intruder FOREIGN DATA WRAPPER mysql OPTIONS (HOST '127.0.0.1')",
      ],
      COPY: ["LOAD DATA INFILE '/etc/hostname' INTO TABLE items"],
      settings: ['SET TRANSACTION READ WRITE'],
    },
    // Writes to a table without transactions, and what would commit nao's transaction implicitly.
    moreRefusals: [...MYSQL_MORE_REFUSALS, ...MYSQL_SESSION.change],
    slow: (marker) => `SELECT SLEEP(30) AS ${marker}`,
    endless: 'SELECT a.id FROM items a CROSS JOIN items b CROSS JOIN items c',
    memoryHungry: {
      none: 'the server bounds the memory of each sort and temporary table (sort_buffer_size, tmp_table_size) and spills to disk',
    },
    session: { none: 'nao refuses every statement that changes the session (SET): see moreRefusals' },
    tableTypes: { id: 'int(11)', name: 'varchar(40)', price: 'decimal(10,2)' },
  },
  brokenTargets: [
    {
      label: 'a closed port',
      config: {
        type: 'mysql',
        name: 'broken',
        host: '127.0.0.1',
        port: 1,
        user: 'nao_reader',
        password: 'hunter2-secret',
        database: 'shop',
      },
      target: '127.0.0.1:1/shop as user nao_reader',
      reason: 'ECONNREFUSED',
    },
    {
      label: 'a wrong password, from a url',
      config: { type: 'mysql', name: 'broken', url: 'mysql://root:hunter2-secret@127.0.0.1:3306/test' },
      target: '127.0.0.1:3306/test as user root',
      reason: 'Access denied',
    },
    {
      label: 'a database that does not exist',
      config: { type: 'mysql', name: 'broken', url: 'mysql://root@127.0.0.1:3306/nao_no_such_database' },
      target: '127.0.0.1:3306/nao_no_such_database as user root',
      reason: "Unknown database 'nao_no_such_database'",
    },
  ],
};
