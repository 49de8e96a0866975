/**
 * The fake warehouse as the Databricks driver sees it, without nao: operation states, SQLSTATEs,
 * the statement time limit and the catalog listing come back the way TCLIService reports them.
 */
import { DBSQLClient } from '@databricks/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDatabricks, startFakeDatabricks } from './fake-databricks.js';

let warehouse: FakeDatabricks;
let client: DBSQLClient;

beforeAll(async () => {
  warehouse = await startFakeDatabricks();
  await warehouse.admin(
    `CREATE SCHEMA s; CREATE TABLE ${warehouse.catalog}.s.t (id INTEGER, amount DECIMAL(12,3))`,
  );
  client = new DBSQLClient({ logger: { log: () => {} } });
  const [host, port] = warehouse.hostname.split(':');
  await client.connect({
    host: host!,
    port: Number(port),
    path: warehouse.httpPath,
    token: warehouse.token,
    customCaCert: warehouse.certificate,
    telemetryEnabled: false,
  });
  client.getConfig().useArrowNativeTypes = false;
});

afterAll(async () => {
  await client?.close();
  await warehouse?.close();
});

const session = () =>
  client.openSession({
    initialCatalog: warehouse.catalog,
    initialSchema: 's',
    configuration: { TIMEZONE: 'UTC' },
  });

describe('the fake Databricks warehouse', () => {
  it('ends a statement past its queryTimeout in TIMEDOUT_STATE and stops running it', async () => {
    const opened = await session();
    const operation = await opened.executeStatement(
      'SELECT count(*) AS nao_fake_slow FROM range(100000000000)',
      {
        queryTimeout: 1,
      },
    );
    try {
      await expect(operation.fetchAll()).rejects.toMatchObject({ errorCode: 'TIMEOUT' });
      // The state changes first; DuckDB then takes its interrupt at its next check.
      await expect.poll(() => warehouse.running('nao_fake_slow'), { timeout: 3000 }).toBe(0);
    } finally {
      await opened.close();
    }
  });

  it('reports a failed statement in ERROR_STATE with its SQLSTATE', async () => {
    const opened = await session();
    const operation = await opened.executeStatement('SELECT nope FROM t');
    await expect(operation.fetchAll()).rejects.toMatchObject({
      errorCode: 'ERROR',
      response: { sqlState: '42703' },
    });
    await opened.close();
  });

  it('explains a write as a command and refuses an unparsable statement with PARSE_SYNTAX_ERROR', async () => {
    const opened = await session();
    const plan = await (await opened.executeStatement('EXPLAIN DELETE FROM t')).fetchAll();
    expect(plan).toEqual([{ plan: expect.stringContaining('Execute DELETECommand') }]);
    const broken = await opened.executeStatement('EXPLAIN SELECT * FROM (\nDELETE FROM t\n)');
    await expect(broken.fetchAll()).rejects.toMatchObject({ response: { sqlState: '42601' } });
    await opened.close();
  });

  it('lists columns through GetColumns with Spark type names', async () => {
    const opened = await session();
    const rows = await (
      await opened.getColumns({ catalogName: warehouse.catalog, schemaName: 's' })
    ).fetchAll();
    expect(
      rows.map((row) => [
        (row as { COLUMN_NAME: string }).COLUMN_NAME,
        (row as { TYPE_NAME: string }).TYPE_NAME,
      ]),
    ).toEqual([
      ['id', 'INT'],
      ['amount', 'DECIMAL(12,3)'],
    ]);
    await opened.close();
    expect(warehouse.openSessions()).toBe(0);
  });
});
