/**
 * The agent's attacks on MariaDB/MySQL (issue #31), tried through the database adapter that
 * execute_sql uses, as root that `allow_privileged_role` lets in and as a least-privilege
 * account; and the account check on connect.
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWhenMissing } from '../../../test-support/local-servers.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  MYSQL_SERVER,
  type MysqlFixture,
  mysqlEngine,
} from '../../../test-support/warehouse-conformance/mysql-engine.js';
import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { openDatabase } from '../open-database.js';

const skip = skipWhenMissing({ tests: 'the MySQL/MariaDB role tests', missing: await mysqlEngine.missing() });

/** Accounts the tests log in as (no password); created once per server, kept. */
const READER = 'nao_test_reader';
const FILE_READER = 'nao_test_file_reader';
/** An account whose default role holds FILE. */
const ROLE_HOLDER = 'nao_test_role_holder';

describe.skipIf(skip)('MySQL/MariaDB accounts', () => {
  let fixture: MysqlFixture;
  let root: Database;
  let reader: Database;
  const warnings: string[] = [];
  const config = (fields: Partial<Extract<DatabaseConfig, { type: 'mysql' }>>): DatabaseConfig => ({
    type: 'mysql',
    name: 'warehouse',
    ...MYSQL_SERVER,
    password: '',
    database: fixture.schema,
    ...fields,
  });
  const globals = async () =>
    (
      await fixture.admin.query<mysql.RowDataPacket[]>(
        'SELECT @@global.general_log AS log, @@global.general_log_file AS file, @@global.max_connections AS max',
      )
    )[0][0]!;

  beforeAll(async () => {
    fixture = await mysqlEngine.setup();
    await fixture.admin.query(`
      CREATE USER IF NOT EXISTS '${READER}'@'%';
      CREATE USER IF NOT EXISTS '${FILE_READER}'@'%';
      GRANT SELECT, SHOW VIEW ON \`${fixture.schema}\`.* TO '${READER}'@'%';
      GRANT FILE ON *.* TO '${FILE_READER}'@'%';
      GRANT SELECT ON \`${fixture.schema}\`.* TO '${FILE_READER}'@'%';
      CREATE ROLE IF NOT EXISTS nao_test_file_role;
      GRANT FILE ON *.* TO nao_test_file_role;
      CREATE USER IF NOT EXISTS '${ROLE_HOLDER}'@'%';
      GRANT nao_test_file_role TO '${ROLE_HOLDER}'@'%';
      GRANT SELECT ON \`${fixture.schema}\`.* TO '${ROLE_HOLDER}'@'%';
      SET DEFAULT ROLE nao_test_file_role FOR '${ROLE_HOLDER}'@'%';`);
    root = await openDatabase(config({ allow_privileged_role: true }), {
      onWarning: (warning) => warnings.push(warning),
    });
    reader = await openDatabase(config({ user: READER }));
  });

  afterAll(async () => {
    await root?.close();
    await reader?.close();
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  it('refuses root without allow_privileged_role, naming the grants to use instead', async () => {
    const refused = await expectFailure(openDatabase(config({})));
    expect(refused.code).toBe('CONNECTION_FAILED');
    expect(refused.message).toMatch(
      /nao refuses to connect as account root@\S+, which holds .*ALL PRIVILEGES/,
    );
    expect(refused.message).toContain("CREATE USER 'nao_reader'@'%' IDENTIFIED BY '<a password>';");
    expect(refused.message).toContain(
      `GRANT SELECT, SHOW VIEW ON \`${fixture.schema}\`.* TO 'nao_reader'@'%';`,
    );
    expect(refused.message).toContain('allow_privileged_role: true');
  });

  it('refuses an account with the FILE privilege', async () => {
    const error = await expectFailure(openDatabase(config({ user: FILE_READER })));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(`account ${FILE_READER}@%, which holds FILE`);
  });

  it('refuses an account whose default role holds FILE', async () => {
    const error = await expectFailure(openDatabase(config({ user: ROLE_HOLDER })));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(`account ${ROLE_HOLDER}@%, which holds FILE`);
  });

  it('lets allowed root in with one warning, and a least-privilege account without', () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/database "warehouse" \(mysql\) connects as account root@\S+, which holds/);
  });

  describe.each([
    ['allowed root', () => root],
    ['a least-privilege account', () => reader],
  ] as const)('as %s', (_label, db) => {
    it('answers an ordinary SELECT', async () => {
      expect((await db().query('SELECT count(*) AS n FROM items WHERE price > 100')).rows).toEqual([[4919]]);
    });

    it('refuses SET GLOBAL general_log_file and general_log, and the server settings stay', async () => {
      const before = await globals();
      const file = `/tmp/nao-attack-${randomBytes(4).toString('hex')}.log`;
      for (const sql of [
        `SET GLOBAL general_log_file = '${file}'`,
        'SET GLOBAL general_log = 1',
        '/* maintenance */ set @@global.general_log = 1',
        'SET SESSION sql_log_off = 1',
      ]) {
        const error = await expectFailure(db().query(sql));
        expect(error.code).toBe('READ_ONLY_VIOLATION');
        expect(error.engineMessage).toContain('starts with SET');
      }
      expect(await globals()).toEqual(before);
      expect(existsSync(file)).toBe(false);
    });

    it.each([
      ["SELECT LOAD_FILE('/etc/hostname')", 'nao refuses load_file'],
      ["SELECT `load_file` ('/etc/hostname')", 'nao refuses load_file'],
      ['SELECT User, Password FROM mysql.user', 'nao refuses mysql'],
      ["SELECT 1 INTO OUTFILE '/tmp/nao-attack-outfile'", 'INTO'],
      ["SELECT 1 INTO DUMPFILE '/tmp/nao-attack-dumpfile'", 'INTO'],
      ["LOAD DATA INFILE '/etc/hostname' INTO TABLE items", 'starts with LOAD'],
      ["SELECT /*!99999 1, */ LOAD_FILE('/etc/hostname')", 'executable comment'],
    ])('refuses %s by name', async (sql, words) => {
      const error = await expectFailure(db().query(sql));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.engineMessage).toContain(words);
    });
  });

  it('would have changed the server settings for root outside nao: the check above can fail', async () => {
    const before = await globals();
    await fixture.admin.query('SET GLOBAL max_connections = ?', [Number(before.max) + 1]);
    try {
      expect(await globals()).not.toEqual(before);
    } finally {
      await fixture.admin.query('SET GLOBAL max_connections = ?', [Number(before.max)]);
    }
  });
});
