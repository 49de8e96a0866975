/**
 * Amazon Athena for tests, speaking its JSON 1.1 protocol on 127.0.0.1 (a random port):
 * `POST /` with `X-Amz-Target: AmazonAthena.<Operation>` for StartQueryExecution,
 * GetQueryExecution, GetQueryResults and StopQueryExecution, answered as the Athena API
 * reference shapes them. A query runs to its end before its results can be read, as Athena
 * writes them to S3 first (here: a table of an in-memory DuckDB catalog); GetQueryResults pages
 * them (MaxResults up to 1000, NextToken) as VarCharValue text under ResultSetMetadata.ColumnInfo,
 * the first row of a DML result being its header. States go QUEUED → RUNNING → SUCCEEDED, FAILED
 * (StateChangeReason, AthenaError) or CANCELLED. Requests must be signed with a known access key.
 * SQL runs on DuckDB (../trino/duckdb-executor.ts: Athena's engine is Trino); EXPLAIN answers
 * with Trino's plan for SELECT, INSERT and CTAS, and fails for the other statements, which
 * Athena's EXPLAIN does not take.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DuckDBTypeId, DuckDBValue } from '@duckdb/node-api';
import { DuckDbExecutor, type FakeColumn, trinoTypeOfName } from '../trino/duckdb-executor.js';
import { classifyStatement, explainText } from '../trino/statement-plan.js';
import { athenaText } from './athena-text.js';

const EXPLAIN_PREFIX = /^\s*EXPLAIN\s*\(\s*TYPE\s+LOGICAL\s*,\s*FORMAT\s+JSON\s*\)\s*/i;

type State = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

interface Execution {
  id: string;
  query: string;
  database: string;
  catalog: string;
  workGroup: string;
  outputLocation: string;
  statementType: 'DML' | 'DDL' | 'UTILITY';
  state: State;
  reason?: string;
  submitted: number;
  completed?: number;
  columns?: FakeColumn[];
  rows?: DuckDBValue[][];
  stop?: () => void;
}

class AthenaRequestError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Athena's name, precision and scale of a column's type. */
function columnInfo(column: FakeColumn): object {
  const trino = column.type;
  const decimal = /^decimal\((\d+),(\d+)\)$/.exec(trino);
  const timestamp = /^timestamp\((\d+)\)( with time zone)?$/.exec(trino);
  let type = trino.replace(/\(.*$/, '');
  let precision = 0;
  let scale = 0;
  if (decimal !== null) [precision, scale] = [Number(decimal[1]), Number(decimal[2])];
  else if (timestamp !== null) {
    type = timestamp[2] === undefined ? 'timestamp' : 'timestamp with time zone';
    precision = Number(timestamp[1]);
  } else if (trino === 'real') type = 'float';
  else if (trino === 'varchar') precision = 2147483647;
  else if (trino === 'integer') precision = 10;
  else if (trino === 'bigint') precision = 19;
  else if (trino === 'double') precision = 17;
  return {
    CatalogName: 'hive',
    SchemaName: '',
    TableName: '',
    Name: column.name,
    Label: column.name,
    Type: type,
    Precision: precision,
    Scale: scale,
    Nullable: 'UNKNOWN',
    CaseSensitive: type === 'varchar',
  };
}

/** Athena's StateChangeReason (Trino's error name and message) for a DuckDB complaint. */
function athenaReason(duckdbMessage: string, database: string): string {
  const message = duckdbMessage.split('\n')[0] ?? '';
  if (/^Binder Error: Referenced column/.test(message)) {
    const column = /column "?([^"\s]+)"? not found/.exec(message)?.[1] ?? '?';
    return `COLUMN_NOT_FOUND: line 1:8: Column '${column}' cannot be resolved`;
  }
  if (/^Catalog Error: .*[Ss]chema/.test(message)) {
    return `SCHEMA_NOT_FOUND: line 1:1: Schema '${database}' does not exist`;
  }
  if (/^Parser Error/.test(message)) return `SYNTAX_ERROR: line 1:1: ${message}`;
  return `GENERIC_USER_ERROR: ${message}`;
}

export interface AthenaFakeOptions {
  /** Access key ids whose signatures are accepted. */
  accessKeyIds: string[];
  /** Work groups that exist besides `primary`. */
  workGroups?: string[];
}

export class AthenaFake {
  readonly executions = new Map<string, Execution>();
  /** Every GetQueryResults request, in order. */
  readonly resultRequests: { id: string; maxResults: number }[] = [];
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly executor: DuckDbExecutor,
    private readonly options: AthenaFakeOptions,
  ) {}

  static async start(options: AthenaFakeOptions): Promise<AthenaFake> {
    const executor = await DuckDbExecutor.create();
    await executor.admin("ATTACH ':memory:' AS athena_results");
    const server = createServer();
    const fake = new AthenaFake(server, executor, options);
    server.on('request', (request, response) => {
      void fake.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A test that never reaches its fixture's cleanup must not be kept alive by the fake.
    server.unref();
    return fake;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Executions still queued or running with `marker` in their query. */
  running(marker: string): number {
    return [...this.executions.values()].filter(
      (execution) =>
        (execution.state === 'QUEUED' || execution.state === 'RUNNING') && execution.query.includes(marker),
    ).length;
  }

  async close(): Promise<void> {
    for (const execution of this.executions.values()) execution.stop?.();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Stopped statements settle before DuckDB goes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.executor.close();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const reply = (status: number, payload: object, type?: string) => {
      response.writeHead(status, {
        'content-type': 'application/x-amz-json-1.1',
        'x-amzn-requestid': `req-${++this.counter}`,
        ...(type === undefined ? {} : { 'x-amzn-errortype': type }),
      });
      response.end(JSON.stringify(payload));
    };
    try {
      const credential = /Credential=([^/]+)\//.exec(request.headers.authorization ?? '')?.[1];
      if (credential === undefined || !this.options.accessKeyIds.includes(credential)) {
        throw new AthenaRequestError(
          'UnrecognizedClientException',
          'The security token included in the request is invalid.',
        );
      }
      const target = String(request.headers['x-amz-target'] ?? '');
      const input = JSON.parse(body || '{}') as Record<string, unknown>;
      switch (target) {
        case 'AmazonAthena.StartQueryExecution':
          return reply(200, this.start(input));
        case 'AmazonAthena.GetQueryExecution':
          return reply(200, this.describe(this.execution(input)));
        case 'AmazonAthena.GetQueryResults':
          return reply(200, await this.results(input));
        case 'AmazonAthena.StopQueryExecution':
          this.execution(input).stop?.();
          return reply(200, {});
        default:
          throw new AthenaRequestError('UnknownOperationException', `Unknown operation ${target}`);
      }
    } catch (error) {
      if (error instanceof AthenaRequestError) {
        return reply(error.status, { __type: error.type, Message: error.message }, error.type);
      }
      return reply(
        500,
        { __type: 'InternalServerException', Message: String(error) },
        'InternalServerException',
      );
    }
  }

  private execution(input: Record<string, unknown>): Execution {
    const execution = this.executions.get(String(input.QueryExecutionId));
    if (execution === undefined) {
      throw new AthenaRequestError(
        'InvalidRequestException',
        `QueryExecution ${String(input.QueryExecutionId)} was not found`,
      );
    }
    return execution;
  }

  private start(input: Record<string, unknown>): object {
    const query = String(input.QueryString ?? '');
    const context = (input.QueryExecutionContext ?? {}) as { Database?: string; Catalog?: string };
    const workGroup = String(input.WorkGroup ?? 'primary');
    if (workGroup !== 'primary' && !(this.options.workGroups ?? []).includes(workGroup)) {
      throw new AthenaRequestError('InvalidRequestException', `WorkGroup ${workGroup} is not found.`);
    }
    const output = (input.ResultConfiguration as { OutputLocation?: string } | undefined)?.OutputLocation;
    if (output === undefined || !output.startsWith('s3://')) {
      throw new AthenaRequestError(
        'InvalidRequestException',
        'No output location provided. An output location is required either through the Workgroup result configuration setting or as an API input.',
      );
    }
    const id = `${String(++this.counter).padStart(8, '0')}-fake-4a0e-9c1d-athena000000`;
    const explained = EXPLAIN_PREFIX.exec(query);
    const statementClass = classifyStatement(explained === null ? query : query.slice(explained[0].length));
    const execution: Execution = {
      id,
      query,
      database: context.Database ?? 'default',
      catalog: context.Catalog ?? 'AwsDataCatalog',
      workGroup,
      outputLocation: `${output.replace(/\/?$/, '/')}${id}.csv`,
      statementType: explained === null && statementClass.kind === 'task' ? 'DDL' : 'DML',
      state: 'QUEUED',
      submitted: Date.now() / 1000,
    };
    this.executions.set(id, execution);
    void this.run(execution, explained === null ? undefined : query.slice(explained[0].length));
    return { QueryExecutionId: id };
  }

  private finish(execution: Execution, state: State, reason?: string): void {
    if (execution.state !== 'QUEUED' && execution.state !== 'RUNNING') return;
    execution.state = state;
    if (reason !== undefined) execution.reason = reason;
    execution.completed = Date.now() / 1000;
  }

  private async run(execution: Execution, explained: string | undefined): Promise<void> {
    execution.stop = () => this.finish(execution, 'CANCELLED', 'Query cancelled by user');
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (execution.state !== 'QUEUED') return;
    execution.state = 'RUNNING';
    if (execution.catalog !== 'AwsDataCatalog') {
      this.finish(
        execution,
        'FAILED',
        `CATALOG_NOT_FOUND: line 1:1: Catalog '${execution.catalog}' does not exist`,
      );
      return;
    }
    if (explained !== undefined) {
      const statementClass = classifyStatement(explained);
      const explainable =
        statementClass.kind === 'query' ||
        (statementClass.kind === 'write' &&
          /^\s*(INSERT|CREATE)/i.test(explained) &&
          statementClass.nodes.includes('TableWriter'));
      if (!explainable) {
        this.finish(execution, 'FAILED', 'NOT_SUPPORTED: EXPLAIN is not supported for this statement type');
        return;
      }
      const complaint =
        statementClass.kind === 'query'
          ? await this.executor.analyze(explained, execution.database)
          : undefined;
      if (complaint !== undefined) {
        this.finish(execution, 'FAILED', athenaReason(complaint, execution.database));
        return;
      }
      execution.columns = [{ name: 'Query Plan', type: 'varchar', duck: undefined as never }];
      execution.rows = [[explainText(explained, statementClass)]];
      this.finish(execution, 'SUCCEEDED');
      return;
    }
    if (execution.statementType !== 'DML' || classifyStatement(execution.query).kind !== 'query') {
      this.finish(execution, 'FAILED', 'NOT_SUPPORTED: the Athena fake runs queries only');
      return;
    }
    const controller = new AbortController();
    execution.stop = () => {
      this.finish(execution, 'CANCELLED', 'Query cancelled by user');
      controller.abort();
    };
    try {
      const cursor = await this.executor.open(execution.query, execution.database, controller.signal);
      execution.columns = cursor.columns;
      // The whole result is written before the query succeeds, as Athena writes it to S3.
      const rows: DuckDBValue[][] = [];
      try {
        for (
          let chunk = await cursor.next();
          chunk !== null && execution.state === 'RUNNING';
          chunk = await cursor.next()
        ) {
          rows.push(...chunk);
        }
      } finally {
        cursor.close();
      }
      execution.rows = rows;
      this.finish(execution, 'SUCCEEDED');
    } catch (error) {
      this.finish(execution, 'FAILED', athenaReason((error as Error).message, execution.database));
    }
  }

  private describe(execution: Execution): object {
    const failed = execution.state === 'FAILED';
    return {
      QueryExecution: {
        QueryExecutionId: execution.id,
        Query: execution.query,
        StatementType: execution.statementType,
        ResultConfiguration: { OutputLocation: execution.outputLocation },
        ResultReuseConfiguration: { ResultReuseByAgeConfiguration: { Enabled: false } },
        QueryExecutionContext: { Database: execution.database, Catalog: execution.catalog },
        Status: {
          State: execution.state,
          ...(execution.reason === undefined ? {} : { StateChangeReason: execution.reason }),
          SubmissionDateTime: execution.submitted,
          ...(execution.completed === undefined ? {} : { CompletionDateTime: execution.completed }),
          ...(failed
            ? {
                AthenaError: {
                  ErrorCategory: 2,
                  ErrorType: 1301,
                  Retryable: false,
                  ErrorMessage: execution.reason,
                },
              }
            : {}),
        },
        Statistics: { EngineExecutionTimeInMillis: 0, DataScannedInBytes: 0, TotalExecutionTimeInMillis: 0 },
        WorkGroup: execution.workGroup,
        EngineVersion: { SelectedEngineVersion: 'AUTO', EffectiveEngineVersion: 'Athena engine version 3' },
      },
    };
  }

  private async results(input: Record<string, unknown>): Promise<object> {
    const execution = this.execution(input);
    if (execution.state !== 'SUCCEEDED') {
      throw new AthenaRequestError(
        'InvalidRequestException',
        `Query has not yet finished. Current state: ${execution.state}`,
      );
    }
    const maxResults = Number(input.MaxResults ?? 1000);
    this.resultRequests.push({ id: execution.id, maxResults });
    if (!(maxResults >= 1 && maxResults <= 1000)) {
      throw new AthenaRequestError('InvalidRequestException', 'MaxResults must be between 1 and 1000');
    }
    const columns = execution.columns ?? [];
    const header = execution.statementType === 'DML' ? [columns.map((column) => column.name)] : [];
    const all = [...header, ...(execution.rows ?? [])];
    const offset =
      input.NextToken === undefined
        ? 0
        : Number(Buffer.from(String(input.NextToken), 'base64url').toString());
    const page = all.slice(offset, offset + maxResults);
    const catalogTypes = /information_schema/i.test(execution.query);
    const isHeader = (index: number) => offset + index < header.length;
    return {
      UpdateCount: 0,
      ResultSet: {
        Rows: page.map((row, rowIndex) => ({
          Data: row.map((value, index) => {
            const column = columns[index]!;
            if (value === null) return {};
            if (isHeader(rowIndex) || column.duck === undefined) return { VarCharValue: String(value) };
            // The fake's catalog answers in Trino's type names, as Athena's information_schema does.
            if (catalogTypes && column.name === 'data_type')
              return { VarCharValue: trinoTypeOfName(String(value)) };
            return { VarCharValue: athenaText(value, column.duck.typeId as DuckDBTypeId) };
          }),
        })),
        ResultSetMetadata: { ColumnInfo: columns.map(columnInfo) },
      },
      ...(offset + maxResults < all.length
        ? { NextToken: Buffer.from(String(offset + maxResults)).toString('base64url') }
        : {}),
    };
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
