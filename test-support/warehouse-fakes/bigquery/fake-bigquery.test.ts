import { BigQuery } from '@google-cloud/bigquery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBigQuery, startFakeBigQuery } from './fake-bigquery.js';

let fake: FakeBigQuery;

beforeAll(async () => {
  fake = await startFakeBigQuery({ projectId: 'nao-fake' });
  await fake.admin.run('CREATE SCHEMA shop; CREATE TABLE shop.orders AS SELECT i AS id FROM range(3) t(i)');
});

afterAll(() => fake?.close());

/** The REST API as a client sees it, without the library's parsing. */
async function rest(path: string, init?: { method: string; body: unknown }) {
  const response = await fetch(`${fake.url}/bigquery/v2/projects/nao-fake${path}`, {
    method: init?.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    ...(init === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the fake BigQuery REST API', () => {
  it('answers jobs.query, the library query() call', async () => {
    const client = new BigQuery({
      projectId: 'nao-fake',
      apiEndpoint: fake.url,
      authClient: { getRequestHeaders: async () => new Headers() } as never,
    });
    const [rows] = await client.query({ query: 'SELECT COUNT(*) AS n FROM shop.orders' });
    expect(rows).toEqual([{ n: 3 }]);
    expect(
      fake.requests.some((request) => request.method === 'POST' && request.path.endsWith('/queries')),
    ).toBe(true);
  });

  it('reports the statement type of a dry run and never runs it', async () => {
    const { body } = await rest('/jobs', {
      method: 'POST',
      body: { configuration: { dryRun: true, query: { query: 'DROP TABLE shop.orders' } } },
    });
    expect(body).toMatchObject({
      status: { state: 'DONE' },
      statistics: { query: { statementType: 'DROP_TABLE' } },
    });
    expect((await fake.admin.runAndReadAll('SELECT count(*) FROM shop.orders')).getRows()).toEqual([[3n]]);
  });

  it('gives TIMESTAMP as float seconds unless int64 microseconds are asked for', async () => {
    const { body: job } = await rest('/jobs', {
      method: 'POST',
      body: { configuration: { query: { query: "SELECT TIMESTAMP '2024-01-02 01:04:05.123456+00' AS t" } } },
    });
    const jobId = (job.jobReference as { jobId: string }).jobId;
    const seconds = await rest(`/queries/${jobId}`);
    expect(seconds.body).toMatchObject({
      jobComplete: true,
      schema: { fields: [{ name: 't', type: 'TIMESTAMP', mode: 'NULLABLE' }] },
      rows: [{ f: [{ v: '1.704157445123456E9' }] }],
    });
    const micros = await rest(`/queries/${jobId}?formatOptions.useInt64Timestamp=true`);
    expect(micros.body).toMatchObject({ rows: [{ f: [{ v: '1704157445123456' }] }] });
  });

  it('answers an unknown job and a bad query as the API does', async () => {
    expect(await rest('/jobs/nope')).toMatchObject({
      status: 404,
      body: { error: { code: 404, status: 'NOT_FOUND', errors: [{ reason: 'notFound' }] } },
    });
    const bad = await rest('/jobs', {
      method: 'POST',
      body: { configuration: { dryRun: true, query: { query: 'SELEC 1' } } },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { errors: [{ reason: 'invalidQuery' }] } } });
  });
});
