import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AthenaFake } from './server.js';

let fake: AthenaFake;

beforeAll(async () => {
  fake = await AthenaFake.start({ accessKeyIds: ['AKIATEST'] });
  await fake.executor.admin(
    'CREATE SCHEMA memory.shop; CREATE TABLE memory.shop.t AS SELECT 1 AS a, NULL::int AS b',
  );
});

afterAll(async () => {
  await fake?.close();
});

interface Answer {
  __type?: string;
  QueryExecutionId?: string;
  NextToken?: string;
  QueryExecution?: { Status: { State: string; StateChangeReason?: string } };
  ResultSet?: { Rows: unknown[]; ResultSetMetadata: { ColumnInfo: object[] } };
}

async function call(operation: string, input: object, key = 'AKIATEST') {
  const response = await fetch(fake.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AmazonAthena.${operation}`,
      authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/eu-west-1/athena/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

const start = (sql: string) =>
  call('StartQueryExecution', {
    QueryString: sql,
    QueryExecutionContext: { Database: 'shop', Catalog: 'AwsDataCatalog' },
    ResultConfiguration: { OutputLocation: 's3://results/' },
  });

describe('the Athena fake', () => {
  it('refuses an unknown access key as Athena does', async () => {
    const { status, body } = await call('GetQueryExecution', { QueryExecutionId: 'x' }, 'AKIAOTHER');
    expect(status).toBe(400);
    expect(body.__type).toBe('UnrecognizedClientException');
  });

  it('answers results only once the query succeeded, header row first, NULL without a VarCharValue', async () => {
    const { body: started } = await start('SELECT a, b FROM t');
    const id = started.QueryExecutionId;
    const early = await call('GetQueryResults', { QueryExecutionId: id });
    expect(early).toMatchObject({ status: 400, body: { __type: 'InvalidRequestException' } });
    await expect
      .poll(
        async () =>
          (await call('GetQueryExecution', { QueryExecutionId: id })).body.QueryExecution?.Status.State,
      )
      .toBe('SUCCEEDED');
    const { body } = await call('GetQueryResults', { QueryExecutionId: id, MaxResults: 1 });
    expect(body.ResultSet?.Rows).toEqual([{ Data: [{ VarCharValue: 'a' }, { VarCharValue: 'b' }] }]);
    expect(body.ResultSet?.ResultSetMetadata.ColumnInfo[0]).toMatchObject({ Name: 'a', Type: 'integer' });
    const next = await call('GetQueryResults', { QueryExecutionId: id, NextToken: body.NextToken });
    expect(next.body.ResultSet?.Rows).toEqual([{ Data: [{ VarCharValue: '1' }, {}] }]);
    expect(next.body.NextToken).toBeUndefined();
  });

  it('ends a stopped query CANCELLED and a failing one FAILED with its StateChangeReason', async () => {
    const { body: slow } = await start('SELECT count(*) FROM range(100000000000) r');
    await call('StopQueryExecution', { QueryExecutionId: slow.QueryExecutionId });
    const stopped = await call('GetQueryExecution', { QueryExecutionId: slow.QueryExecutionId });
    expect(stopped.body.QueryExecution?.Status.State).toBe('CANCELLED');
    const { body: bad } = await start('SELECT missing FROM t');
    await expect
      .poll(
        async () =>
          (await call('GetQueryExecution', { QueryExecutionId: bad.QueryExecutionId })).body.QueryExecution
            ?.Status,
      )
      .toMatchObject({
        State: 'FAILED',
        StateChangeReason: expect.stringContaining("Column 'missing' cannot be resolved"),
      });
  });
});
