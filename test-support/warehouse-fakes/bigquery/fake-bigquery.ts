/**
 * A fake BigQuery: the REST API v2 routes the Node client uses (jobs.insert with dry runs,
 * jobs.query, jobs.getQueryResults with pages, jobs.get, jobs.cancel, datasets.get/list),
 * answering as the API reference shapes them, on 127.0.0.1 at a random port. SQL runs on an
 * embedded DuckDB (datasets are its schemas), read-write like a BigQuery project where the
 * caller may write: only nao's own check keeps writes out. Each job enforces `jobTimeoutMs`
 * and `maximumBytesBilled` as BigQuery does, and a cancel interrupts it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { GoogleSqlError, statementType, toDuckDbSql } from './google-sql.js';
import { type RestField, restCell, restField } from './rest-rows.js';

/** What the fake saw of one request, for tests to check what the client sent. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

interface ErrorProto {
  reason: string;
  message: string;
  location?: string;
}

interface FakeJob {
  projectId: string;
  jobId: string;
  location: string;
  configuration: Record<string, unknown>;
  sql: string;
  dataset: string | undefined;
  statementType: string;
  bytes: number;
  state: 'RUNNING' | 'DONE';
  created: number;
  ended?: number;
  errorResult?: ErrorProto;
  fields?: RestField[];
  rows?: DuckDBValue[][];
  /** Rows handed out by getQueryResults so far. */
  rowsServed: number;
  stop?: 'timeout' | 'cancel';
  done: Promise<void>;
  connection?: DuckDBConnection;
}

export interface FakeBigQuery {
  /** The `api_endpoint` to configure: http://127.0.0.1:<port>. */
  url: string;
  projectId: string;
  /** A connection of the test itself, with every right. */
  admin: DuckDBConnection;
  requests: SeenRequest[];
  /** Jobs still running whose SQL contains `text`. */
  running(text: string): number;
  jobs(): FakeJob[];
  close(): Promise<void>;
}

const MIN_BILLED_BYTES = 10 * 1024 * 1024;
const DEFAULT_WAIT_MS = 10_000;
const LOCATION = 'US';

/** Types and macros that let DuckDB read the GoogleSQL the tests send. */
const GOOGLE_SQL_SHIMS = [
  "SET TimeZone = 'UTC'",
  'CREATE TYPE FLOAT64 AS DOUBLE',
  'CREATE TYPE BYTES AS BLOB',
  'CREATE TYPE BIGNUMERIC AS DECIMAL(38, 10)',
  `CREATE MACRO bq_type(t) AS CASE
     WHEN t IN ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT') THEN 'INT64'
     WHEN t IN ('FLOAT', 'DOUBLE') THEN 'FLOAT64'
     WHEN t = 'VARCHAR' THEN 'STRING'
     WHEN t = 'BOOLEAN' THEN 'BOOL'
     WHEN t = 'BLOB' THEN 'BYTES'
     WHEN t = 'TIMESTAMP' THEN 'DATETIME'
     WHEN t = 'TIMESTAMP WITH TIME ZONE' THEN 'TIMESTAMP'
     WHEN t LIKE 'DECIMAL(%' THEN 'NUMERIC(' || replace(substr(t, 9), ',', ', ')
     ELSE t END`,
  `CREATE MACRO bq_information_schema_columns(dataset) AS TABLE
     SELECT table_schema, table_name, column_name, ordinal_position, bq_type(data_type) AS data_type
       FROM information_schema.columns WHERE table_schema = dataset`,
];

export async function startFakeBigQuery(options: {
  projectId: string;
  /** False: jobs run past their `jobTimeoutMs`, as BigQuery documents it may ("may attempt to stop the job"). */
  enforceJobTimeout?: boolean;
}): Promise<FakeBigQuery> {
  const { projectId } = options;
  const instance = await DuckDBInstance.create(':memory:');
  const admin = await instance.connect();
  for (const statement of GOOGLE_SQL_SHIMS) await admin.run(statement);
  const jobs = new Map<string, FakeJob>();
  const requests: SeenRequest[] = [];
  const waits = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waits.add(wake);
    });

  async function datasets(): Promise<string[]> {
    const reader = await admin.runAndReadAll(
      "SELECT schema_name FROM duckdb_schemas() WHERE NOT internal AND schema_name NOT IN ('main', 'information_schema', 'pg_catalog') ORDER BY 1",
    );
    return reader.getRows().map((row) => String(row[0]));
  }

  /** Bytes a query would process: 8 per cell of each table it names, as a stand-in for BigQuery's estimate. */
  async function estimateBytes(sql: string): Promise<number> {
    const reader = await admin.runAndReadAll(
      'SELECT table_name, estimated_size, column_count FROM duckdb_tables() WHERE NOT internal',
    );
    let bytes = 0;
    for (const [table, rows, columns] of reader.getRows()) {
      if (new RegExp(`\\b${String(table)}\\b`, 'i').test(sql)) bytes += Number(rows) * Number(columns) * 8;
    }
    return bytes;
  }

  function datasetResource(id: string) {
    return {
      kind: 'bigquery#dataset',
      id: `${projectId}:${id}`,
      datasetReference: { projectId, datasetId: id },
      location: LOCATION,
    };
  }

  function jobResource(job: FakeJob) {
    const done = job.state === 'DONE';
    return {
      kind: 'bigquery#job',
      id: `${job.projectId}:${job.location}.${job.jobId}`,
      jobReference: { projectId: job.projectId, jobId: job.jobId, location: job.location },
      configuration: { ...job.configuration, jobType: 'QUERY' },
      status: done
        ? {
            state: 'DONE',
            ...(job.errorResult ? { errorResult: job.errorResult, errors: [job.errorResult] } : {}),
          }
        : { state: job.state },
      statistics: {
        creationTime: String(job.created),
        startTime: String(job.created),
        ...(done ? { endTime: String(job.ended ?? job.created) } : {}),
        totalBytesProcessed: String(job.bytes),
        query: {
          statementType: job.statementType,
          totalBytesProcessed: String(job.bytes),
          totalBytesBilled: String(billedBytes(job.bytes)),
          cacheHit: false,
          ...(job.fields ? { schema: { fields: job.fields } } : {}),
        },
      },
    };
  }

  async function execute(job: FakeJob, timeoutMs: number | undefined): Promise<void> {
    const connection = await instance.connect();
    job.connection = connection;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            job.stop ??= 'timeout';
          }, timeoutMs);
    // An interrupt sent before DuckDB starts the statement is lost: repeat it until the job ends.
    const interrupter = setInterval(() => {
      if (job.stop !== undefined) connection.interrupt();
    }, 20);
    try {
      if (job.dataset !== undefined) await connection.run(`USE "${job.dataset.replaceAll('"', '""')}"`);
      if (job.stop !== undefined) throw new Error('stopped before it ran');
      const reader = await connection.runAndReadAll(toDuckDbSql(job.sql, projectId));
      if (job.stop !== undefined) throw new Error('stopped');
      const types = reader.columnTypes();
      job.fields = reader.columnNames().map((name, index) => restField(name, types[index]!));
      job.rows = reader.getRows();
    } catch (error) {
      job.errorResult =
        job.stop === 'timeout'
          ? { reason: 'timeout', message: `Job timed out after ${(timeoutMs ?? 0) / 1000} sec` }
          : job.stop === 'cancel'
            ? { reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' }
            : { reason: 'invalidQuery', message: (error as Error).message, location: 'query' };
    } finally {
      clearTimeout(timer);
      clearInterval(interrupter);
      connection.closeSync();
      job.state = 'DONE';
      job.ended = Date.now();
    }
  }

  /** jobs.insert of a query job: a dry run answers at once, a real one starts running. */
  async function insertJob(body: Record<string, unknown>): Promise<[number, unknown]> {
    const configuration = (body.configuration ?? {}) as Record<string, unknown>;
    const query = (configuration.query ?? {}) as Record<string, unknown>;
    const reference = (body.jobReference ?? {}) as { jobId?: string; location?: string };
    const sql = String(query.query ?? '');
    const dataset = (query.defaultDataset as { datasetId?: string } | undefined)?.datasetId;
    let type: string;
    try {
      type = statementType(sql);
      if (type === 'SELECT') await validate(sql, dataset);
    } catch (error) {
      return invalid((error as Error).message);
    }
    const job: FakeJob = {
      projectId,
      jobId: reference.jobId ?? randomUUID(),
      location: reference.location ?? LOCATION,
      configuration,
      sql,
      dataset,
      statementType: type,
      bytes: await estimateBytes(sql),
      state: 'RUNNING',
      created: Date.now(),
      rowsServed: 0,
      done: Promise.resolve(),
    };
    if (configuration.dryRun === true) {
      job.state = 'DONE';
      return [200, jobResource(job)];
    }
    jobs.set(job.jobId, job);
    const limit = query.maximumBytesBilled === undefined ? undefined : Number(query.maximumBytesBilled);
    if (limit !== undefined && billedBytes(job.bytes) > limit) {
      job.state = 'DONE';
      job.errorResult = {
        reason: 'bytesBilledLimitExceeded',
        message: `Query exceeded limit for bytes billed: ${limit}. ${billedBytes(job.bytes)} or higher required.`,
      };
      return [200, jobResource(job)];
    }
    const timeout =
      configuration.jobTimeoutMs === undefined || options.enforceJobTimeout === false
        ? undefined
        : Number(configuration.jobTimeoutMs);
    job.done = execute(job, timeout);
    return [200, jobResource(job)];
  }

  /** A dry run's checks of a SELECT: DuckDB binds it without running it. */
  async function validate(sql: string, dataset: string | undefined): Promise<void> {
    const connection = await instance.connect();
    try {
      if (dataset !== undefined) {
        if (!(await datasets()).includes(dataset))
          throw new GoogleSqlError(`Not found: Dataset ${projectId}:${dataset}`);
        await connection.run(`USE "${dataset.replaceAll('"', '""')}"`);
      }
      await connection.prepare(toDuckDbSql(sql, projectId));
    } finally {
      connection.closeSync();
    }
  }

  /** jobs.getQueryResults: waits up to `timeoutMs` for the job, then one page of rows. */
  async function queryResults(job: FakeJob, query: Record<string, string>): Promise<[number, unknown]> {
    const wait = Math.min(Number(query.timeoutMs ?? DEFAULT_WAIT_MS), DEFAULT_WAIT_MS);
    if (job.state !== 'DONE') await Promise.race([job.done, sleep(wait)]);
    const reference = { projectId: job.projectId, jobId: job.jobId, location: job.location };
    if (job.state !== 'DONE')
      return [200, { kind: 'bigquery#getQueryResultsResponse', jobReference: reference, jobComplete: false }];
    if (job.errorResult) return apiError(400, job.errorResult);
    const rows = job.rows ?? [];
    const start = query.pageToken
      ? Number(Buffer.from(query.pageToken, 'base64url').toString())
      : Number(query.startIndex ?? 0);
    const max = query.maxResults === undefined ? 100_000 : Number(query.maxResults);
    const page = rows.slice(start, start + max);
    job.rowsServed += page.length;
    const next =
      start + page.length < rows.length
        ? Buffer.from(String(start + page.length)).toString('base64url')
        : undefined;
    const int64 = query['formatOptions.useInt64Timestamp'] === 'true';
    const fields = job.fields ?? [];
    return [
      200,
      {
        kind: 'bigquery#getQueryResultsResponse',
        schema: { fields },
        jobReference: reference,
        totalRows: String(rows.length),
        ...(page.length > 0
          ? {
              rows: page.map((row) => ({
                f: fields.map((field, index) => restCell(field, row[index] ?? null, int64)),
              })),
            }
          : {}),
        ...(next === undefined ? {} : { pageToken: next }),
        totalBytesProcessed: String(job.bytes),
        jobComplete: true,
        cacheHit: false,
      },
    ];
  }

  async function route(
    method: string,
    path: string,
    query: Record<string, string>,
    body: Record<string, unknown>,
  ): Promise<[number, unknown]> {
    const match = /^\/bigquery\/v2\/projects\/([^/]+)(\/.*)?$/.exec(path);
    if (match === null) return apiError(404, { reason: 'notFound', message: `Not found: URL ${path}` });
    const [, project, rest = ''] = match;
    if (decodeURIComponent(project!) !== projectId) {
      return apiError(404, {
        reason: 'notFound',
        message: `Not found: Project ${decodeURIComponent(project!)}`,
      });
    }
    const [, collection = '', encodedId, action] =
      /^\/([a-z]+)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(rest) ?? [];
    const id = encodedId === undefined ? undefined : decodeURIComponent(encodedId);
    const call = `${method} ${collection}${id === undefined ? '' : '/:id'}${action === undefined ? '' : `/${action}`}`;
    if (call === 'GET datasets') {
      return [200, { kind: 'bigquery#datasetList', datasets: (await datasets()).map(datasetResource) }];
    }
    if (call === 'GET datasets/:id') {
      if (!(await datasets()).includes(id!)) {
        return apiError(404, { reason: 'notFound', message: `Not found: Dataset ${projectId}:${id}` });
      }
      return [200, datasetResource(id!)];
    }
    if (call === 'POST jobs') return insertJob(body);
    if (call === 'POST queries') return runQuery(body);
    const found = id === undefined ? undefined : jobs.get(id);
    if (['GET jobs/:id', 'POST jobs/:id/cancel', 'GET queries/:id'].includes(call) && found === undefined) {
      return apiError(404, { reason: 'notFound', message: `Not found: Job ${projectId}:${id}` });
    }
    if (call === 'GET jobs/:id') return [200, jobResource(found!)];
    if (call === 'POST jobs/:id/cancel') {
      if (found!.state !== 'DONE') found!.stop ??= 'cancel';
      return [200, { kind: 'bigquery#jobCancelResponse', job: jobResource(found!) }];
    }
    if (call === 'GET queries/:id') return queryResults(found!, query);
    return apiError(404, { reason: 'notFound', message: `Not found: URL ${path}` });
  }

  /** jobs.query: a job, waited for up to `timeoutMs`, answered with its first page. */
  async function runQuery(body: Record<string, unknown>): Promise<[number, unknown]> {
    const { query, timeoutMs, maxResults, formatOptions, jobTimeoutMs, ...settings } = body;
    const [status, inserted] = await insertJob({
      configuration: {
        query: { ...settings, query },
        ...(jobTimeoutMs === undefined ? {} : { jobTimeoutMs }),
      },
    });
    if (status !== 200) return [status, inserted];
    const jobId = (inserted as { jobReference: { jobId: string } }).jobReference.jobId;
    const found = jobs.get(jobId);
    if (found === undefined) return [200, inserted];
    const [resultStatus, result] = await queryResults(found, {
      ...(timeoutMs === undefined ? {} : { timeoutMs: String(timeoutMs) }),
      ...(maxResults === undefined ? {} : { maxResults: String(maxResults) }),
      'formatOptions.useInt64Timestamp': String(
        (formatOptions as { useInt64Timestamp?: boolean } | undefined)?.useInt64Timestamp ?? false,
      ),
    });
    return resultStatus === 200
      ? [200, { ...(result as object), kind: 'bigquery#queryResponse' }]
      : [resultStatus, result];
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const query = Object.fromEntries(url.searchParams);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        send(response, ...apiError(400, { reason: 'parseError', message: 'Parse Error' }));
        return;
      }
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        query,
        body,
        authorization: request.headers.authorization,
      });
      route(request.method ?? 'GET', url.pathname, query, body).then(
        ([status, payload]) => send(response, status, payload),
        (error: unknown) =>
          send(response, ...apiError(500, { reason: 'backendError', message: String(error) })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    projectId,
    admin,
    requests,
    running: (text) =>
      [...jobs.values()].filter((job) => job.state !== 'DONE' && job.sql.includes(text)).length,
    jobs: () => [...jobs.values()],
    async close() {
      for (const job of jobs.values()) if (job.state !== 'DONE') job.stop ??= 'cancel';
      for (const wake of [...waits]) wake();
      await Promise.allSettled([...jobs.values()].map((job) => job.done));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      admin.closeSync();
      instance.closeSync();
    },
  };
}

function billedBytes(bytes: number): number {
  return bytes === 0 ? 0 : Math.max(bytes, MIN_BILLED_BYTES);
}

function send(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(payload));
}

function apiError(code: number, error: ErrorProto): [number, unknown] {
  const status = code === 404 ? 'NOT_FOUND' : code === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL';
  return [
    code,
    { error: { code, message: error.message, errors: [{ ...error, domain: 'global' }], status } },
  ];
}

function invalid(message: string): [number, unknown] {
  return apiError(400, { reason: 'invalidQuery', message, location: 'query' });
}
