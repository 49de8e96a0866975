import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuckDbSql } from '../warehouse/index.js';
import { checkExtractionSql, MAX_SQL_LENGTH } from './safety-check.js';

const ORDERS = 'query_0a1b2c3d';
const CUSTOMERS = 'query_99887766';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(`CREATE TABLE ${ORDERS} AS SELECT range AS id, range % 3 AS customer_id, range * 1.5 AS amount,
    DATE '2024-01-01' + range::INTEGER AS day, 'r' || (range % 2) AS region FROM range(10)`);
  await connection.run(
    `CREATE TABLE ${CUSTOMERS} AS SELECT range AS customer_id, 'c' || range AS name FROM range(3)`,
  );
  // A table that exists in the database but is not one of this run's results.
  await connection.run('CREATE TABLE query_ffffffff AS SELECT 1 AS secret');
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const check = (sql: string) => checkExtractionSql({ connection, sql, tableIds: [ORDERS, CUSTOMERS] });

/** [what, sql, a phrase the reason must contain] */
const REFUSED: [string, string, string][] = [
  // DuckDB would parse only the text before it, while the whole text is recorded.
  [
    'a NUL byte before a second statement',
    `SELECT 1 FROM ${ORDERS}\0; SELECT 2`,
    'NUL character (U+0000) at position',
  ],
  ['a NUL byte inside a string literal', `SELECT 'a\0b' AS x FROM ${ORDERS}`, 'not valid in SQL text'],
  // Files and URLs
  ['read_csv of /etc/passwd', "SELECT * FROM read_csv('/etc/passwd')", 'read_csv() is not allowed'],
  ['read_csv_auto', "SELECT * FROM read_csv_auto('/etc/passwd')", 'read_csv_auto() is not allowed'],
  ['read_text', "SELECT * FROM read_text('/etc/hostname')", 'read_text() is not allowed'],
  ['read_blob', "SELECT * FROM read_blob('/etc/hostname')", 'read_blob() is not allowed'],
  [
    'read_json over a URL',
    "SELECT * FROM read_json('https://example.com/x.json')",
    'read_json() is not allowed',
  ],
  [
    'read_parquet over S3',
    "SELECT * FROM read_parquet('s3://bucket/x.parquet')",
    'read_parquet() is not allowed',
  ],
  ['glob', "SELECT * FROM glob('/home/*')", 'glob() is not allowed'],
  ['sniff_csv', "SELECT * FROM sniff_csv('/etc/passwd')", 'sniff_csv() is not allowed'],
  ['replacement scan of a path', "SELECT * FROM '/etc/passwd'", 'looks like a file or URL'],
  ['replacement scan of a csv', "SELECT * FROM 'orders.csv'", 'looks like a file or URL'],
  [
    'replacement scan of a URL',
    "SELECT * FROM 'https://example.com/data.parquet'",
    'looks like a file or URL',
  ],
  [
    'file read in a join',
    `SELECT * FROM ${ORDERS} JOIN read_csv('/etc/passwd') ON true`,
    'read_csv() is not allowed',
  ],
  [
    'file read in a subquery',
    `SELECT *, (SELECT count(*) FROM read_text('/etc/passwd')) FROM ${ORDERS}`,
    'read_text() is not allowed',
  ],
  [
    'file read in a CTE',
    `WITH f AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM ${ORDERS}, f`,
    'read_csv() is not allowed',
  ],
  // Writes and other statements
  ['COPY TO', `COPY ${ORDERS} TO '/tmp/nao-leak.csv'`, 'not COPY.'],
  ['COPY query TO', `COPY (SELECT * FROM ${ORDERS}) TO '/tmp/nao-leak.csv'`, 'not COPY.'],
  ['EXPORT DATABASE', "EXPORT DATABASE '/tmp/nao-export'", 'not EXPORT.'],
  ['ATTACH', "ATTACH '/tmp/other.duckdb' AS other", 'not ATTACH.'],
  ['INSTALL', 'INSTALL httpfs', 'not INSTALL.'],
  ['LOAD', 'LOAD httpfs', 'not LOAD.'],
  ['SET', 'SET enable_external_access = true', 'not SET.'],
  ['RESET', 'RESET memory_limit', 'not RESET.'],
  ['PRAGMA', 'PRAGMA database_list', 'not PRAGMA.'],
  ['CALL', 'CALL pragma_version()', 'not CALL.'],
  ['CREATE TABLE', `CREATE TABLE x AS SELECT * FROM ${ORDERS}`, 'not CREATE.'],
  ['DROP TABLE', `DROP TABLE ${ORDERS}`, 'not DROP.'],
  ['DELETE', `DELETE FROM ${ORDERS}`, 'not DELETE.'],
  ['UPDATE', `UPDATE ${ORDERS} SET amount = 0`, 'not UPDATE.'],
  ['INSERT', `INSERT INTO ${ORDERS} SELECT * FROM ${ORDERS}`, 'not INSERT.'],
  [
    'DML hidden in a CTE',
    `WITH d AS (DELETE FROM ${ORDERS} RETURNING *) SELECT * FROM d`,
    'A CTE needs a SELECT',
  ],
  ['DESCRIBE', `DESCRIBE ${ORDERS}`, 'DESCRIBE, SHOW and SUMMARIZE are not answers'],
  ['SHOW TABLES', 'SHOW TABLES', 'DESCRIBE, SHOW and SUMMARIZE are not answers'],
  ['EXPLAIN', `EXPLAIN SELECT * FROM ${ORDERS}`, 'not EXPLAIN.'],
  ['two statements', `SELECT * FROM ${ORDERS}; DROP TABLE ${ORDERS}`, 'holds 2 statements'],
  ['a SELECT then a COPY', `SELECT 1 FROM ${ORDERS}; COPY ${ORDERS} TO '/tmp/x.csv'`, 'holds 2 statements'],
  [
    'dynamic PIVOT (expands to two statements)',
    `PIVOT ${ORDERS} ON region USING sum(amount)`,
    'holds 2 statements',
  ],
  // Catalog, settings, environment, other tables
  ['duckdb_settings()', 'SELECT * FROM duckdb_settings()', 'duckdb_settings() is not allowed'],
  ['duckdb_tables view', 'SELECT * FROM duckdb_tables', '"duckdb_tables" is not one of them'],
  ['duckdb_tables() function', 'SELECT * FROM duckdb_tables()', 'duckdb_tables() is not allowed'],
  [
    'information_schema',
    'SELECT * FROM information_schema.tables',
    '"information_schema.tables" is not one of them',
  ],
  ['sqlite_master', 'SELECT * FROM sqlite_master', '"sqlite_master" is not one of them'],
  ['pg_catalog', 'SELECT * FROM pg_catalog.pg_class', '"pg_catalog.pg_class" is not one of them'],
  ['another query id', 'SELECT * FROM query_ffffffff', '"query_ffffffff" is not one of them'],
  [
    'another query id in a subquery',
    `SELECT * FROM ${ORDERS} WHERE id IN (SELECT secret FROM query_ffffffff)`,
    '"query_ffffffff" is not one of them',
  ],
  ['a result id under another schema', `SELECT * FROM pg_catalog.${ORDERS}`, 'without a schema or catalog'],
  ['a result id in the temp catalog', `SELECT * FROM temp.main.${ORDERS}`, 'without a schema or catalog'],
  [
    'current_setting',
    `SELECT current_setting('threads') AS t FROM ${ORDERS}`,
    'current_setting() is not allowed',
  ],
  ['getenv', `SELECT getenv('HOME') FROM ${ORDERS}`, 'getenv() is not allowed'],
  ['pragma_version()', 'SELECT * FROM pragma_version()', 'pragma_version() is not allowed'],
  ['query() runs SQL text', "SELECT * FROM query('SELECT 1')", 'query() is not allowed'],
  ['query_table()', `SELECT * FROM query_table('${ORDERS}')`, 'query_table() is not allowed'],
  [
    'json_execute_serialized_sql',
    "SELECT * FROM json_execute_serialized_sql('{}')",
    'json_execute_serialized_sql() is not allowed',
  ],
  ['version()', `SELECT version() FROM ${ORDERS}`, 'version() is not allowed'],
  [
    'a qualified function call',
    `SELECT pg_catalog.sum(amount) FROM ${ORDERS}`,
    'without a schema or catalog',
  ],
  [
    'CTE shadowing a system view',
    'WITH duckdb_tables AS (SELECT * FROM duckdb_tables) SELECT * FROM duckdb_tables',
    '"duckdb_tables" is not one of them',
  ],
  [
    'CTE reading a forbidden table',
    `WITH x AS (SELECT * FROM duckdb_settings()) SELECT * FROM ${ORDERS}, x`,
    'duckdb_settings() is not allowed',
  ],
  // Literal-only answers
  ['literal answer', 'SELECT 42 AS total_revenue', 'reads none of the result tables'],
  [
    'literal rows via VALUES',
    "SELECT * FROM (VALUES ('a', 1), ('b', 2)) t(region, n)",
    'reads none of the result tables',
  ],
  [
    'CTE named like a result table',
    `WITH ${ORDERS} AS (SELECT 42 AS amount) SELECT amount FROM ${ORDERS}`,
    'reads none of the result tables',
  ],
  ['only generated rows', 'SELECT * FROM range(10)', 'reads none of the result tables'],
  // Unbounded values the memory limit does not cover
  ['repeat', `SELECT repeat('x', 1000000000) FROM ${ORDERS}`, 'repeat() is not allowed'],
  ['scalar range list', `SELECT len(range(1000000000)) FROM ${ORDERS}`, 'range() is not allowed'],
  ['lpad', `SELECT lpad(region, 1000000000, 'x') FROM ${ORDERS}`, 'lpad() is not allowed'],
  ['printf width', `SELECT printf('%1000000000d', id) FROM ${ORDERS}`, 'printf() is not allowed'],
  ['list_resize', `SELECT list_resize([1], 1000000000) FROM ${ORDERS}`, 'list_resize() is not allowed'],
  ['sleep', `SELECT sleep_ms(100000) FROM ${ORDERS}`, 'sleep_ms() is not allowed'],
  // Degenerate input
  ['empty text', '   ', 'The query is empty'],
  ['only a comment', '-- nothing', 'The query is empty'],
  ['syntax error', `SELEC * FROM ${ORDERS}`, 'syntax error'],
];

const ACCEPTED: [string, string][] = [
  ['plain select', `SELECT region, sum(amount) AS revenue FROM ${ORDERS} GROUP BY region`],
  ['quoted id', `SELECT * FROM "${ORDERS}"`],
  ['id in another case', `SELECT * FROM ${ORDERS.toUpperCase()}`],
  ['main qualifier', `SELECT * FROM main.${ORDERS}`],
  ['memory qualifier', `SELECT * FROM memory.main.${ORDERS}`],
  ['FROM-first', `FROM ${ORDERS} SELECT id`],
  ['trailing semicolon and comments', `-- the answer\nSELECT id FROM ${ORDERS} /* done */ ;`],
  [
    'join two results',
    `SELECT c.name, sum(o.amount) FROM ${ORDERS} o JOIN ${CUSTOMERS} c USING (customer_id) GROUP BY ALL`,
  ],
  [
    'CTEs',
    `WITH a AS (SELECT * FROM ${ORDERS}), b AS (SELECT region, count(*) n FROM a GROUP BY region) SELECT * FROM b`,
  ],
  [
    'recursive CTE',
    `WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT * FROM t, ${ORDERS}`,
  ],
  ['materialized CTE', `WITH x AS MATERIALIZED (SELECT * FROM ${ORDERS}) SELECT count(*) FROM x`],
  [
    'window and QUALIFY',
    `SELECT * FROM ${ORDERS} QUALIFY row_number() OVER (PARTITION BY region ORDER BY amount DESC) = 1`,
  ],
  ['TRY_CAST', `SELECT TRY_CAST(region AS INTEGER) AS r, CAST(amount AS DECIMAL(18,2)) AS a FROM ${ORDERS}`],
  ['PIVOT with IN list', `PIVOT ${ORDERS} ON region IN ('r0', 'r1') USING sum(amount)`],
  [
    'PIVOT in a subquery',
    `SELECT * FROM (PIVOT ${ORDERS} ON region IN ('r0', 'r1') USING sum(amount) GROUP BY customer_id)`,
  ],
  ['SQL-standard PIVOT', `SELECT * FROM ${ORDERS} PIVOT (sum(amount) FOR region IN ('r0', 'r1'))`],
  [
    'UNPIVOT',
    `UNPIVOT (SELECT id, amount, customer_id FROM ${ORDERS}) ON amount, customer_id INTO NAME k VALUE v`,
  ],
  [
    'struct and list functions',
    `SELECT {'r': region}.r AS r, list_sum([amount, 1]) AS s, list_transform([1, 2], x -> x + id) AS l FROM ${ORDERS}`,
  ],
  ['unnest and range as table functions', `SELECT * FROM range(3) r(i) JOIN ${ORDERS} o ON o.id = r.i`],
  [
    'generate_series date spine',
    `SELECT d.generate_series AS day, count(o.id) FROM generate_series(DATE '2024-01-01', DATE '2024-01-10', INTERVAL 1 DAY) d LEFT JOIN ${ORDERS} o ON o.day = d.generate_series GROUP BY ALL`,
  ],
  ['UNION', `SELECT id FROM ${ORDERS} UNION ALL SELECT customer_id FROM ${CUSTOMERS}`],
  [
    'subquery expressions',
    `SELECT *, (SELECT max(amount) FROM ${ORDERS}) AS top FROM ${CUSTOMERS} WHERE EXISTS (SELECT 1 FROM ${ORDERS})`,
  ],
  ['date arithmetic against today', `SELECT * FROM ${ORDERS} WHERE day > current_date - INTERVAL 10000 DAY`],
  [
    'strftime and string concatenation',
    `SELECT strftime(day, '%Y-%m') || '/' || region AS label FROM ${ORDERS}`,
  ],
  [
    'ORDER BY, LIMIT, DISTINCT ON',
    `SELECT DISTINCT ON (region) region, amount FROM ${ORDERS} ORDER BY region, amount DESC LIMIT 5`,
  ],
];

describe('checkExtractionSql attack corpus', () => {
  it.each(REFUSED)('refuses %s', async (_label, sql, reason) => {
    const result = await check(sql);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toContain(reason);
  });

  it('refuses absurdly long queries before parsing them', async () => {
    const sql = `SELECT ${'1 + '.repeat(MAX_SQL_LENGTH / 4)}1 FROM ${ORDERS}`;
    const result = await check(sql);
    expect(result).toMatchObject({ success: false, error: expect.stringContaining('characters long') });
  });

  it('names the available tables when refusing an unknown one', async () => {
    const result = await check('SELECT * FROM orders');
    expect(result).toEqual({
      success: false,
      error: `Only the result tables can be read: "orders" is not one of them ("${ORDERS}", "${CUSTOMERS}").`,
    });
  });
});

describe('checkExtractionSql accepts DuckDB syntax', () => {
  it.each(ACCEPTED)('%s', async (_label, sql) => {
    expect(await check(sql)).toMatchObject({ success: true });
    // And it really runs: the check did not accept something DuckDB rejects.
    await expect(connection.runAndReadAll(sql)).resolves.toBeDefined();
  });

  it('parses SQL holding quotes and backslashes exactly as written', async () => {
    // The SQL reaches json_serialize_sql as a string literal: its own quotes must not end it early.
    const sql = `SELECT 'it''s', '\\n', region FROM ${ORDERS} WHERE region <> 'x'')--'`;
    expect(await check(sql)).toMatchObject({ success: true, tablesRead: [ORDERS] });
    expect(await check(`SELECT 1 FROM ${ORDERS}'); SELECT * FROM query_ffffffff; --`)).toMatchObject({
      success: false,
    });
    // DuckDB's parser stops at a NUL: such SQL is refused before it is parsed.
    expect(await check(`SELECT '\u0000' AS nul, region FROM ${ORDERS}`)).toMatchObject({
      success: false,
      error: expect.stringContaining('NUL character'),
    });
  });

  it('reports which result tables a query reads, and hands on its parse', async () => {
    const sql = `SELECT * FROM ${ORDERS} o JOIN ${CUSTOMERS} c USING (customer_id)`;
    expect(await check(sql)).toEqual({
      success: true,
      tablesRead: [ORDERS, CUSTOMERS],
      tree: await parseDuckDbSql(connection, sql),
    });
  });
});
