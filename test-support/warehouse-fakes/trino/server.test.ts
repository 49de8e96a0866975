import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrinoFake } from './server.js';

let fake: TrinoFake;

beforeAll(async () => {
  fake = await TrinoFake.start();
});

afterAll(async () => {
  await fake?.close();
});

interface Page {
  id: string;
  nextUri?: string;
  columns?: { name: string; type: string; typeSignature: { rawType: string } }[];
  data?: unknown[][];
  stats: { state: string };
  error?: { errorName: string; errorType: string; message: string };
}

async function post(sql: string, headers: Record<string, string> = {}): Promise<Page> {
  const response = await fetch(`http://127.0.0.1:${fake.port}/v1/statement`, {
    method: 'POST',
    body: sql,
    headers: { 'X-Trino-User': 'test', ...headers },
  });
  return (await response.json()) as Page;
}

/** Follows nextUri to the end, as a client of Trino's protocol does. */
async function follow(first: Page): Promise<Page[]> {
  const pages = [first];
  for (let page = first; page.nextUri !== undefined; ) {
    page = (await (await fetch(page.nextUri)).json()) as Page;
    pages.push(page);
  }
  return pages;
}

describe('the Trino fake', () => {
  it('queues a statement, then pages its columns and data to FINISHED', async () => {
    const first = await post(
      "SELECT CAST('9007199254740993' AS bigint) AS big, CAST(1.5 AS decimal(5,2)) AS d",
    );
    expect(first).toMatchObject({
      stats: { state: 'QUEUED' },
      nextUri: expect.stringContaining('/v1/statement/'),
    });
    const pages = await follow(first);
    expect(pages.at(-1)).toMatchObject({ stats: { state: 'FINISHED' } });
    expect(pages.at(-1)?.nextUri).toBeUndefined();
    const withData = pages.find((page) => page.data !== undefined)!;
    expect(
      withData.columns?.map((column) => [column.name, column.type, column.typeSignature.rawType]),
    ).toEqual([
      ['big', 'bigint', 'bigint'],
      ['d', 'decimal(5,2)', 'decimal'],
    ]);
    // JSON.parse rounds the bigint here; the next test reads the exact text.
    expect(withData.data).toEqual([[9007199254740992, '1.50']]);
  });

  it('writes bigint as an exact JSON number, as Trino does', async () => {
    let page = await post("SELECT CAST('9007199254740993' AS bigint) AS big");
    let text = '';
    while (page.nextUri !== undefined && !text.includes('"data"')) {
      text = await (await fetch(page.nextUri)).text();
      page = JSON.parse(text) as Page;
    }
    expect(text).toContain('"data":[[9007199254740993]]');
  });

  it('cancels on DELETE of nextUri: the next page is FAILED with USER_CANCELED', async () => {
    const first = await post('SELECT count(*) FROM range(100000000000) a');
    const deleted = await fetch(first.nextUri!, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const last = (await follow(first)).at(-1)!;
    expect(last).toMatchObject({
      stats: { state: 'FAILED' },
      error: { errorName: 'USER_CANCELED', errorType: 'USER_ERROR' },
    });
  });

  it('fails a statement past query_max_run_time with EXCEEDED_TIME_LIMIT', async () => {
    const first = await post('SELECT count(*) FROM range(100000000000) a', {
      'X-Trino-Session': 'query_max_run_time=200ms',
    });
    const last = (await follow(first)).at(-1)!;
    expect(last.error).toMatchObject({
      errorName: 'EXCEEDED_TIME_LIMIT',
      errorType: 'INSUFFICIENT_RESOURCES',
    });
  });

  it('answers EXPLAIN with a plan for a query, writer nodes for a write and the text of a DDL statement', async () => {
    const plan = async (sql: string) =>
      (await follow(await post(`EXPLAIN (TYPE LOGICAL, FORMAT JSON) ${sql}`))).find((page) => page.data)
        ?.data?.[0]?.[0];
    expect(JSON.parse(String(await plan('SELECT 1')))).toMatchObject({ name: 'Output' });
    expect(String(await plan('INSERT INTO t VALUES (1)'))).toContain('"TableWriter"');
    expect(await plan('DROP TABLE t')).toBe('DROP TABLE t');
  });
});
