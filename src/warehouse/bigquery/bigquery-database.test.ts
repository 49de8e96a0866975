import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import {
  type FakeBigQuery,
  startFakeBigQuery,
} from '../../../test-support/warehouse-fakes/bigquery/fake-bigquery.js';
import type { Database } from '../database.js';
import { type BigQueryDatabaseConfig, bigQueryClientOptions } from './bigquery-client.js';
import { DEFAULT_MAXIMUM_BYTES_BILLED } from './bigquery-config.js';
import { openBigQueryDatabase } from './bigquery-database.js';

const PROJECT = 'nao-unit';
let fake: FakeBigQuery;
let db: Database;

function config(extra: Partial<BigQueryDatabaseConfig> = {}): BigQueryDatabaseConfig {
  return {
    type: 'bigquery',
    name: 'bq',
    project_id: PROJECT,
    dataset_id: 'shop',
    api_endpoint: fake.url,
    maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
    ...extra,
  };
}

/** The configuration of every job (dry run or not) the fake was sent since `from`. */
function jobsSent(from: number) {
  return fake.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && request.path.endsWith('/jobs'))
    .map((request) => (request.body as { configuration: Record<string, unknown> }).configuration);
}

beforeAll(async () => {
  fake = await startFakeBigQuery({ projectId: PROJECT });
  await fake.admin.run(`
    CREATE SCHEMA shop;
    CREATE TABLE shop.orders AS SELECT i AS id FROM range(5000) t(i);
    CREATE SCHEMA archive;
    CREATE TABLE archive.old_orders (id INTEGER, placed TIMESTAMPTZ);`);
  db = await openBigQueryDatabase(config());
});

afterAll(async () => {
  await db?.close();
  await fake?.close();
});

describe('BigQuery jobs', () => {
  it('dry-runs first, then runs the job with the bytes-billed cap, the default dataset and no credentials over http', async () => {
    const from = fake.requests.length;
    await db.query('SELECT COUNT(*) AS n FROM orders', { timeoutMs: 60_000 });
    const [dryRun, job] = jobsSent(from);
    expect(dryRun).toMatchObject({ dryRun: true, query: { query: 'SELECT COUNT(*) AS n FROM orders' } });
    expect(job?.dryRun).toBeUndefined();
    expect(job).toMatchObject({
      query: {
        useLegacySql: false,
        maximumBytesBilled: String(DEFAULT_MAXIMUM_BYTES_BILLED),
        defaultDataset: { projectId: PROJECT, datasetId: 'shop' },
      },
    });
    // What is left of the 60 s limit after the dry run.
    expect(Number(job?.jobTimeoutMs)).toBeGreaterThan(50_000);
    expect(Number(job?.jobTimeoutMs)).toBeLessThanOrEqual(60_000);
    expect(fake.requests.slice(from).map((request) => request.authorization)).toEqual(
      fake.requests.slice(from).map(() => undefined),
    );
  });

  it('never creates the job of a refused statement', async () => {
    const from = fake.requests.length;
    expect((await expectFailure(db.query('DELETE FROM orders WHERE true'))).code).toBe('READ_ONLY_VIOLATION');
    expect(jobsSent(from).map((job) => job.dryRun)).toEqual([true]);
  });

  it('fails a query that would bill more than maximum_bytes_billed, naming the setting', async () => {
    const capped = await openBigQueryDatabase(config({ name: 'capped', maximum_bytes_billed: 1000 }));
    try {
      const error = await expectFailure(capped.query('SELECT COUNT(*) AS n FROM orders'));
      expect(error.code).toBe('QUERY_FAILED');
      expect(error.message).toContain('Query exceeded limit for bytes billed: 1000');
      expect(error.message).toContain('`maximum_bytes_billed`, 1000 bytes');
      // A query that reads no table bills nothing.
      expect((await capped.query('SELECT 1 AS one')).rows).toEqual([[1]]);
    } finally {
      await capped.close();
    }
  });

  it('refuses before running a query the dry run estimates above max_query_size', async () => {
    const small = await openBigQueryDatabase(config({ name: 'small', max_query_size: 0.00001 }));
    try {
      const from = fake.requests.length;
      const error = await expectFailure(small.query('SELECT COUNT(*) AS n FROM orders'));
      expect(error.code).toBe('QUERY_FAILED');
      expect(error.message).toContain('more than the `max_query_size` of 0.00001 GiB');
      expect(jobsSent(from).map((job) => job.dryRun)).toEqual([true]);
    } finally {
      await small.close();
    }
  });

  it('reads only the rows the cap needs from a large finished result', async () => {
    const result = await db.query(
      'SELECT a.id FROM orders a CROSS JOIN (SELECT id FROM orders LIMIT 40) b ORDER BY a.id',
      {
        maxRows: 3,
      },
    );
    expect(result).toMatchObject({ rows: [[0], [0], [0]], truncated: true });
    const job = fake.jobs().find((found) => found.sql.includes('LIMIT 40'));
    expect(job?.rows).toHaveLength(200_000);
    expect(job?.rowsServed).toBe(4);
  });

  it('pages through a result larger than one page', async () => {
    const result = await db.query('SELECT a.id FROM orders a CROSS JOIN (SELECT id FROM orders LIMIT 3) b');
    expect(result.rows).toHaveLength(15_000);
    expect(result.truncated).toBe(false);
    const job = fake.jobs().find((found) => found.sql.includes('LIMIT 3)'));
    expect(job?.rowsServed).toBe(15_000);
  });

  it('cancels the job on BigQuery when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const running = db.query(
      'SELECT SUM(a.id * b.id * c.id) AS nao_abort FROM orders a, orders b, orders c',
      {
        signal: controller.signal,
      },
    );
    await expect.poll(() => fake.running('nao_abort')).toBe(1);
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    await expect.poll(() => fake.running('nao_abort')).toBe(0);
    const cancels = fake.requests.filter((request) => request.path.endsWith('/cancel'));
    expect(cancels.length).toBeGreaterThan(0);
    expect(fake.jobs().find((job) => job.sql.includes('nao_abort'))?.errorResult?.reason).toBe('stopped');
  });

  it('cancels the job itself when BigQuery lets it run past jobTimeoutMs', async () => {
    const lax = await startFakeBigQuery({ projectId: PROJECT, enforceJobTimeout: false });
    try {
      await lax.admin.run(
        'CREATE SCHEMA shop; CREATE TABLE shop.orders AS SELECT i AS id FROM range(5000) t(i)',
      );
      const database = await openBigQueryDatabase({ ...config(), api_endpoint: lax.url });
      const started = performance.now();
      const error = await expectFailure(
        database.query('SELECT SUM(a.id * b.id * c.id) AS nao_lax FROM orders a, orders b, orders c', {
          timeoutMs: 200,
        }),
      );
      expect(error.code).toBe('QUERY_TIMEOUT');
      // nao's own cancel comes 2 s after the limit, when BigQuery's did not stop the job.
      expect(performance.now() - started).toBeGreaterThan(2000);
      expect(performance.now() - started).toBeLessThan(8000);
      await expect.poll(() => lax.running('nao_lax')).toBe(0);
      expect(lax.jobs().find((job) => job.sql.includes('nao_lax'))?.errorResult?.reason).toBe('stopped');
      await database.close();
    } finally {
      await lax.close();
    }
  });

  it('lists the tables of every dataset when no dataset_id is set', async () => {
    const { dataset_id: _, ...withoutDataset } = config({ name: 'all' });
    const all = await openBigQueryDatabase(withoutDataset);
    try {
      expect(await all.listTables()).toEqual([
        {
          schema: 'archive',
          name: 'old_orders',
          columns: [
            { name: 'id', type: 'INT64' },
            { name: 'placed', type: 'TIMESTAMP' },
          ],
        },
        { schema: 'shop', name: 'orders', columns: [{ name: 'id', type: 'INT64' }] },
      ]);
    } finally {
      await all.close();
    }
  });
});

describe('opening BigQuery', () => {
  it('names the package to install when the driver is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@google-cloud/bigquery'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await expectFailure(
      openBigQueryDatabase(config(), {
        importDriver: () => Promise.reject(missing),
      }),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('@google-cloud/bigquery is an optional dependency of nao');
    expect(error.message).toContain('run `npm install @google-cloud/bigquery`');
  });

  it('passes a service account key, a key file relative to the project, or nothing for ADC', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-bq-'));
    try {
      await writeFile(path.join(dir, 'sa.json'), '{}');
      const base = { ...config(), api_endpoint: undefined };
      const key = { type: 'service_account', client_email: 'nao@p.iam.gserviceaccount.com' };
      expect(
        await bigQueryClientOptions({ config: { ...base, credentials_json: key }, projectDir: dir }),
      ).toMatchObject({
        projectId: PROJECT,
        credentials: key,
      });
      const fromFile = await bigQueryClientOptions({
        config: { ...base, credentials_path: 'sa.json' },
        projectDir: dir,
      });
      expect(fromFile.keyFilename).toBe(path.join(dir, 'sa.json'));
      const adc = await bigQueryClientOptions({
        config: { ...base, sso: true, location: 'EU' },
        projectDir: dir,
      });
      expect(adc).toMatchObject({ location: 'EU' });
      expect(adc).not.toHaveProperty('credentials');
      expect(adc).not.toHaveProperty('keyFilename');
      expect(adc).not.toHaveProperty('authClient');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
