import { describe, expect, it } from 'vitest';
import { postgresPlanRefusal, postgresStatementRefusal } from './postgres-statement-guard.js';

describe('postgresStatementRefusal', () => {
  it.each([
    'SELECT 1',
    "select count(*) from items where name = 'pg_read_file'",
    '(SELECT 1) UNION (SELECT 2)',
    'WITH t AS (SELECT 1) SELECT * FROM t',
    'VALUES (1)',
    'TABLE items',
    '-- a comment first\nSELECT 1',
    '  ',
  ])('lets %j through to the server', (sql) => {
    expect(postgresStatementRefusal(sql)).toBeUndefined();
  });

  it.each<[string, RegExp]>([
    ["COPY (SELECT 1) TO PROGRAM 'touch /tmp/x'", /only queries .* starts with COPY/],
    ["/* hi */ copy items to '/tmp/x'", /starts with COPY/],
    ['SET search_path = public', /starts with SET/],
    ['DO $$ BEGIN END $$', /starts with DO/],
    ['SELECT 1 INTO new_table', /INTO/],
    ["SELECT pg_read_file('/etc/passwd')", /pg_read_file/],
    ["SELECT PG_CATALOG.PG_READ_FILE('/etc/passwd')", /pg_read_file/],
    ['SELECT "pg_catalog"."pg_read_binary_file"(\'/etc/passwd\')', /pg_read_binary_file/],
    ["SELECT pg_read_file/* x */('/etc/passwd')", /pg_read_file/],
    ["SELECT * FROM pg_ls_dir('.')", /pg_ls_dir/],
    ["SELECT pg_stat_file('postgresql.conf')", /pg_stat_file/],
    ['SELECT pg_reload_conf()', /pg_reload_conf/],
    ["SELECT set_config('work_mem', '1GB', false)", /set_config/],
    ["SELECT lo_import('/etc/passwd')", /lo_import/],
    ["SELECT lo_export(1, '/tmp/x')", /lo_export/],
    ["SELECT * FROM dblink('host=x', 'select 1') AS t(a int)", /dblink/],
    ["SELECT query_to_xml('select 1', true, true, '')", /query_to_xml/],
    ['SELECT usename, passwd FROM pg_shadow', /pg_shadow/],
    ['TABLE pg_catalog.pg_authid', /pg_authid/],
    ['SELECT pg_terminate_backend(1)', /pg_terminate_backend/],
    ["SELECT '\\', pg_read_file('x') -- '", /pg_read_file/],
    ['SELECT U&"\\0070g_read_file"(\'x\')', /Unicode-escaped/],
    ["SELECT 'never closed", /cannot read the statement safely/],
  ])('refuses %j', (sql, reason) => {
    expect(postgresStatementRefusal(sql)).toMatch(reason);
  });
});

describe('postgresPlanRefusal', () => {
  const plan = (node: Record<string, unknown>) => JSON.stringify([{ Plan: node }]);

  it('lets a plan that only reads through', () => {
    expect(
      postgresPlanRefusal(
        plan({
          'Node Type': 'Seq Scan',
          'Relation Name': 'items',
          Output: ['items.id', "'pg_read_file'::text"],
        }),
      ),
    ).toBeUndefined();
  });

  it.each<[string, string, RegExp]>([
    [
      'a write in a WITH',
      plan({ 'Node Type': 'CTE Scan', Plans: [{ 'Node Type': 'ModifyTable', Operation: 'Delete' }] }),
      /writes or locks rows \(ModifyTable: Delete\)/,
    ],
    ['a view over pg_authid', plan({ 'Node Type': 'Seq Scan', 'Relation Name': 'pg_authid' }), /pg_authid/],
    ['a function scan', plan({ 'Node Type': 'Function Scan', 'Function Name': 'pg_ls_dir' }), /pg_ls_dir/],
    [
      'a view whose column calls pg_read_file',
      plan({ 'Node Type': 'Result', Output: ["pg_read_file('/etc/passwd'::text)"] }),
      /pg_read_file/,
    ],
    ['text that is not a plan', 'not json', /no plan/],
  ])('refuses %s', (_label, text, reason) => {
    expect(postgresPlanRefusal(text)).toMatch(reason);
  });
});
