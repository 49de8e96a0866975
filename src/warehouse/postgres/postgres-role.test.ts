/**
 * The agent's attacks on PostgreSQL (issue #31), tried through the database adapter that
 * execute_sql uses, as a superuser that `allow_privileged_role` lets in and as a
 * least-privilege role; and the role check on connect.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SERVER, skipWhenMissing } from '../../../test-support/local-servers.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  type PostgresFixture,
  postgresEngine,
} from '../../../test-support/warehouse-conformance/postgres-engine.js';
import type { Database } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { openDatabase } from '../open-database.js';

const skip = skipWhenMissing({ tests: 'the PostgreSQL role tests', missing: await postgresEngine.missing() });

/** Roles the tests log in as (trust authentication: no password); created once per server, kept. */
const READER = 'nao_test_reader';
const PROGRAM_RUNNER = 'nao_test_program_runner';

describe.skipIf(skip)('PostgreSQL roles', () => {
  let fixture: PostgresFixture;
  let superuser: Database;
  let reader: Database;
  const warnings: string[] = [];
  const config = (fields: Partial<Extract<DatabaseConfig, { type: 'postgres' }>>): DatabaseConfig => ({
    type: 'postgres',
    name: 'warehouse',
    ...POSTGRES_SERVER,
    password: 'hunter2-secret',
    schema: fixture.schema,
    ...fields,
  });

  beforeAll(async () => {
    fixture = await postgresEngine.setup();
    for (const role of [READER, PROGRAM_RUNNER]) {
      // Idempotent, and safe when another test file creates it at the same moment.
      await fixture.admin.query(`CREATE ROLE ${role} LOGIN`).catch((error: { code?: string }) => {
        if (error.code !== '42710' && error.code !== '23505') throw error;
      });
    }
    await fixture.admin.query(`
      GRANT pg_execute_server_program TO ${PROGRAM_RUNNER};
      GRANT USAGE ON SCHEMA ${fixture.schema} TO ${READER};
      CREATE VIEW ${fixture.schema}.host_file AS SELECT pg_read_file('/etc/hostname') AS content;
      GRANT SELECT ON ALL TABLES IN SCHEMA ${fixture.schema} TO ${READER};`);
    superuser = await openDatabase(config({ allow_privileged_role: true }), {
      onWarning: (warning) => warnings.push(warning),
    });
    reader = await openDatabase(config({ user: READER }));
  });

  afterAll(async () => {
    await superuser?.close();
    await reader?.close();
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  /** Whether the server sees `file` (the test's own superuser connection asks). */
  const serverHasFile = async (file: string) =>
    (await fixture.admin.query('SELECT (pg_stat_file($1, true)).size IS NOT NULL AS found', [file])).rows[0]
      .found;

  it('refuses a superuser without allow_privileged_role, naming the grants to use instead', async () => {
    const error = await expectFailure(openDatabase(config({})));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('nao refuses to connect as role "postgres", which holds superuser');
    expect(error.message).toContain(`GRANT USAGE ON SCHEMA "${fixture.schema}" TO nao_reader;`);
    expect(error.message).toContain(
      `GRANT SELECT ON ALL TABLES IN SCHEMA "${fixture.schema}" TO nao_reader;`,
    );
    expect(error.message).toContain('GRANT CONNECT ON DATABASE "test" TO nao_reader;');
    expect(error.message).toContain('allow_privileged_role: true');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a role that may run programs on the server', async () => {
    const error = await expectFailure(openDatabase(config({ user: PROGRAM_RUNNER })));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain(`role "${PROGRAM_RUNNER}", which holds pg_execute_server_program`);
  });

  it('lets an allowed superuser in with one warning, and a least-privilege role without', () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'database "warehouse" (postgres) connects as role "postgres", which holds superuser',
    );
    expect(warnings[0]).not.toContain('hunter2');
  });

  /**
   * Each role and how the server's plan refusals reach it: the superuser's plan is nao's to
   * refuse; the least-privilege role is refused by the server first, when EXPLAIN checks its
   * rights (permission denied).
   */
  const roles = [
    [
      'an allowed superuser',
      () => superuser,
      (plannedBy: string) => ({ code: 'READ_ONLY_VIOLATION', words: plannedBy }),
    ],
    ['a least-privilege role', () => reader, () => ({ code: 'QUERY_FAILED', words: 'permission denied' })],
  ] as const;

  describe.each(roles)('as %s', (_label, db, planRefusal) => {
    it('answers an ordinary SELECT', async () => {
      expect((await db().query('SELECT count(*) AS n FROM items WHERE price > 100')).rows).toEqual([[4919]]);
    });

    it('refuses COPY … TO PROGRAM, and the program never runs', async () => {
      const file = `/tmp/nao-attack-${randomBytes(4).toString('hex')}`;
      for (const sql of [
        `COPY (SELECT 1) TO PROGRAM 'touch ${file}'`,
        `/* report */ copy (select 1) to program 'touch ${file}'`,
        `COPY items TO '${file}'`,
      ]) {
        const error = await expectFailure(db().query(sql));
        expect(error.code).toBe('READ_ONLY_VIOLATION');
        expect(error.engineMessage).toContain('starts with COPY');
      }
      expect(await serverHasFile(file)).toBe(false);
    });

    it.each([
      ["SELECT pg_read_file('/etc/hostname')", 'pg_read_file'],
      ["select PG_CATALOG.pg_read_file ( '/etc/hostname' )", 'pg_read_file'],
      ['SELECT "pg_catalog"."pg_read_binary_file"(\'/etc/hostname\')', 'pg_read_binary_file'],
      ["SELECT * FROM pg_ls_dir('.') AS f", 'pg_ls_dir'],
      ['SELECT pg_reload_conf()', 'pg_reload_conf'],
      ["SELECT set_config('work_mem', '1GB', false)", 'set_config'],
      ['SELECT usename, passwd FROM pg_shadow', 'pg_shadow'],
      ['SELECT rolpassword FROM pg_catalog.pg_authid', 'pg_authid'],
      ["SELECT lo_import('/etc/hostname')", 'lo_import'],
    ])('refuses %s by name', async (sql, name) => {
      const error = await expectFailure(db().query(sql));
      expect(error.code).toBe('READ_ONLY_VIOLATION');
      expect(error.engineMessage).toContain(`nao refuses ${name}`);
    });

    it("refuses a view that reads a server file, from the server's plan", async () => {
      const error = await expectFailure(db().query('SELECT content FROM host_file'));
      const expected = planRefusal('the statement reaches pg_read_file');
      expect(error.code).toBe(expected.code);
      expect(error.engineMessage).toContain(expected.words);
    });

    it("refuses a write inside a WITH, from the server's plan", async () => {
      const before = await fixture.snapshot();
      const error = await expectFailure(
        db().query('WITH gone AS (DELETE FROM items RETURNING id) SELECT count(*) FROM gone'),
      );
      const expected = planRefusal('ModifyTable: Delete');
      expect(error.code).toBe(expected.code);
      expect(error.engineMessage).toContain(expected.words);
      expect(await fixture.snapshot()).toEqual(before);
    });
  });

  it('would have run the program for a superuser outside nao: the check above can fail', async () => {
    const file = `/tmp/nao-attack-${randomBytes(4).toString('hex')}`;
    await fixture.admin.query(`COPY (SELECT 1) TO PROGRAM 'touch ${file}'`);
    expect(await serverHasFile(file)).toBe(true);
    await fixture.admin.query(`COPY (SELECT 1) TO PROGRAM 'rm -f ${file}'`);
  });
});
