/**
 * A Trino coordinator for tests, speaking Trino's client REST protocol on 127.0.0.1 (a random
 * port): `POST /v1/statement` queues a statement and answers its `nextUri`; each `GET nextUri`
 * long-polls (up to 1 s) for the next page of `data` (one DuckDB chunk), with `columns` (name,
 * type, typeSignature) once known and `stats.state` QUEUED → RUNNING → FINISHED or FAILED with
 * an `error` (message, errorCode, errorName, errorType, failureInfo); `DELETE nextUri` or
 * `DELETE /v1/query/{id}` cancels (USER_CANCELED). `X-Trino-Catalog` must be `memory`,
 * `X-Trino-Schema` is the schema unqualified names resolve in, and the `query_max_run_time`
 * session property of `X-Trino-Session` fails a statement running longer with EXCEEDED_TIME_LIMIT.
 * SQL runs on an embedded DuckDB (duckdb-executor.ts); EXPLAIN answers as statement-plan.ts says.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DuckDBTypeId, DuckDBValue } from '@duckdb/node-api';
import { DuckDbExecutor, type FakeColumn, type FakeCursor, trinoTypeOfName } from './duckdb-executor.js';
import { classifyStatement, explainText } from './statement-plan.js';
import { trinoJsonValue } from './trino-json-value.js';

const EXPLAIN_PREFIX = /^\s*EXPLAIN\s*\(\s*TYPE\s+LOGICAL\s*,\s*FORMAT\s+JSON\s*\)\s*/i;
const LONG_POLL_MS = 1000;

interface TrinoFailure {
  message: string;
  errorCode: number;
  errorName: string;
  errorType: string;
}

const failure = (errorName: string, errorCode: number, errorType: string, message: string): TrinoFailure => ({
  message,
  errorCode,
  errorName,
  errorType,
});

/** Trino's error of a DuckDB complaint about a statement. */
function failureOfDuckDb(message: string): TrinoFailure {
  const first = message.split('\n')[0] ?? message;
  if (/^Parser Error/.test(first)) return failure('SYNTAX_ERROR', 1, 'USER_ERROR', `line 1:1: ${first}`);
  if (/^Binder Error: Referenced column/.test(first)) {
    const column = /column "?([^"\s]+)"? not found/.exec(first)?.[1] ?? '?';
    return failure('COLUMN_NOT_FOUND', 47, 'USER_ERROR', `line 1:8: Column '${column}' cannot be resolved`);
  }
  if (/^Catalog Error: Table/.test(first))
    return failure('TABLE_NOT_FOUND', 46, 'USER_ERROR', `line 1:1: ${first}`);
  return failure('GENERIC_USER_ERROR', 0, 'USER_ERROR', first);
}

/** A Duration of Trino's session properties ('300ms', '1.50s', '5m') in milliseconds. */
function durationMs(text: string): number | undefined {
  const match = /^([\d.]+)\s*(ns|us|ms|s|m|h|d)$/.exec(text.trim());
  if (match === null) return undefined;
  const unit = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 'ms'
  ];
  return Number(match[1]) * unit;
}

class FakeQuery {
  state: 'QUEUED' | 'RUNNING' | 'FINISHED' | 'FAILED' = 'QUEUED';
  error: TrinoFailure | undefined;
  columns: FakeColumn[] | undefined;
  /** Rows of a statement answered at once (EXPLAIN), handed out on the next poll. */
  rows: DuckDBValue[][] | undefined;
  cursor: FakeCursor | undefined;
  pending: Promise<void> | undefined;
  token = 0;
  private timer: NodeJS.Timeout | undefined;
  readonly started: Promise<void>;
  /** Settles when the statement fails, so a waiting poll answers at once, as Trino's does. */
  private readonly failed: Promise<void>;
  private markFailed!: () => void;
  readonly slug = randomBytes(6).toString('hex');
  /** Interrupts DuckDB when the statement ends early, also before its first rows. */
  private readonly aborted = new AbortController();

  constructor(
    readonly id: string,
    readonly sql: string,
    private readonly fake: TrinoFake,
    private readonly session: {
      catalog: string | undefined;
      schema: string | undefined;
      maxRunMs: number | undefined;
    },
  ) {
    this.failed = new Promise((resolve) => {
      this.markFailed = resolve;
    });
    if (session.maxRunMs !== undefined) {
      this.timer = setTimeout(
        () =>
          this.fail(
            failure(
              'EXCEEDED_TIME_LIMIT',
              131075,
              'INSUFFICIENT_RESOURCES',
              `Query exceeded maximum time limit of ${(session.maxRunMs ?? 0).toFixed(2)}ms`,
            ),
          ),
        session.maxRunMs,
      );
    }
    this.started = this.start().catch((error: unknown) =>
      this.fail(failureOfDuckDb((error as Error).message)),
    );
  }

  get finished(): boolean {
    return this.state === 'FINISHED' || this.state === 'FAILED';
  }

  private async start(): Promise<void> {
    const { catalog, schema } = this.session;
    if (catalog !== undefined && catalog !== 'memory') {
      this.fail(failure('CATALOG_NOT_FOUND', 44, 'USER_ERROR', `line 1:1: Catalog '${catalog}' not found`));
      return;
    }
    if (schema !== undefined && !(await this.fake.hasSchema(schema))) {
      this.fail(failure('SCHEMA_NOT_FOUND', 45, 'USER_ERROR', `line 1:1: Schema '${schema}' does not exist`));
      return;
    }
    const explained = EXPLAIN_PREFIX.exec(this.sql);
    if (explained !== null) {
      const inner = this.sql.slice(explained[0].length);
      const statementClass = classifyStatement(inner);
      const complaint =
        statementClass.kind === 'query' ? await this.fake.executor.analyze(inner, schema) : undefined;
      if (this.finished) return;
      if (complaint !== undefined) {
        this.fail(failureOfDuckDb(complaint));
        return;
      }
      this.columns = [{ name: 'Query Plan', type: 'varchar', duck: undefined as never }];
      this.rows = [[explainText(inner, statementClass)]];
      this.state = 'RUNNING';
      return;
    }
    if (classifyStatement(this.sql).kind === 'task') {
      this.fail(failure('NOT_SUPPORTED', 13, 'USER_ERROR', 'The Trino fake runs queries and writes only'));
      return;
    }
    const cursor = await this.fake.executor.open(this.sql, schema, this.aborted.signal);
    if (this.finished) {
      cursor.close();
      return;
    }
    this.cursor = cursor;
    this.columns = cursor.columns;
    this.state = 'RUNNING';
  }

  fail(error: TrinoFailure): void {
    if (this.finished) return;
    this.state = 'FAILED';
    this.error = error;
    this.markFailed();
    this.stop();
  }

  cancel(): void {
    this.fail(failure('USER_CANCELED', 3, 'USER_ERROR', 'Query was canceled'));
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.aborted.abort();
    const cursor = this.cursor;
    if (cursor !== undefined) {
      cursor.interrupt();
      // The interrupted fetch settles first; closing the connection under it would crash DuckDB.
      void (this.pending ?? Promise.resolve()).finally(() => cursor.close());
    }
  }

  /** The next page: waits up to LONG_POLL_MS for rows, the end or a failure. */
  async poll(): Promise<DuckDBValue[][] | undefined> {
    await Promise.race([this.started, this.failed, sleep(LONG_POLL_MS)]);
    if (this.finished || this.columns === undefined) return undefined;
    if (this.rows !== undefined) {
      const rows = this.rows;
      this.rows = undefined;
      this.finishIfDone(true);
      return rows;
    }
    const cursor = this.cursor;
    if (cursor === undefined) {
      this.finishIfDone(true);
      return undefined;
    }
    let page: DuckDBValue[][] | null | undefined;
    this.pending ??= cursor.next().then(
      (rows) => {
        page = rows;
      },
      (error: unknown) => this.fail(failureOfDuckDb((error as Error).message)),
    );
    const pending = this.pending;
    const settled = await Promise.race([
      pending.then(() => true),
      this.failed.then(() => true),
      sleep(LONG_POLL_MS).then(() => false),
    ]);
    if (!settled || this.finished) return undefined;
    this.pending = undefined;
    if (page === null) {
      this.finishIfDone(true);
      return undefined;
    }
    return page;
  }

  private finishIfDone(done: boolean): void {
    if (!done || this.finished) return;
    this.state = 'FINISHED';
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.cursor?.close();
    this.cursor = undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function typeSignature(type: string): object {
  const match = /^([a-z ]+?)(?:\(([^)]*)\))?(?: with time zone)?$/.exec(type);
  const rawType = type.includes('with time zone')
    ? `${match?.[1] ?? type} with time zone`
    : (match?.[1] ?? type);
  const args = (match?.[2] ?? '')
    .split(',')
    .filter((part) => /^\s*\d+\s*$/.test(part))
    .map((part) => ({ kind: 'LONG', value: Number(part) }));
  return { rawType, arguments: rawType === 'varchar' ? [{ kind: 'LONG', value: 2147483647 }] : args };
}

/** JSON text with bigint values written as JSON numbers, as Trino's Jackson writes longs. */
function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `\u0000${item}` : item)).replace(
    /"\\u0000(-?\d+)"/g,
    '$1',
  );
}

export interface TrinoFakeOptions {
  /** When set, every request must carry HTTP basic credentials with this password. */
  password?: string;
}

export class TrinoFake {
  readonly queries = new Map<string, FakeQuery>();
  /** Every statement received, in order. */
  readonly received: string[] = [];
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly executor: DuckDbExecutor,
    private readonly options: TrinoFakeOptions,
  ) {}

  static async start(options: TrinoFakeOptions = {}): Promise<TrinoFake> {
    const executor = await DuckDbExecutor.create();
    const server = createServer();
    const fake = new TrinoFake(server, executor, options);
    server.on('request', (request, response) => {
      fake.handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A test that never reaches its fixture's cleanup must not be kept alive by the fake.
    server.unref();
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Statements not finished yet with `marker` in their text. */
  running(marker: string): number {
    return [...this.queries.values()].filter((query) => !query.finished && query.sql.includes(marker)).length;
  }

  async hasSchema(schema: string): Promise<boolean> {
    const cursor = await this.executor.open(
      `SELECT 1 FROM information_schema.schemata WHERE catalog_name = 'memory' AND schema_name = '${schema.replaceAll("'", "''")}'`,
      undefined,
    );
    try {
      return ((await cursor.next()) ?? []).length > 0;
    } finally {
      cursor.close();
    }
  }

  async close(): Promise<void> {
    for (const query of this.queries.values()) query.cancel();
    await Promise.all([...this.queries.values()].map((query) => query.pending?.catch(() => {})));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.executor.close();
  }

  private authorized(request: IncomingMessage): boolean {
    if (this.options.password === undefined) return true;
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const [, password] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(/:(.*)/s);
    return password === this.options.password;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const base = `http://${request.headers.host}`;
    if (!this.authorized(request)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="Trino"', 'content-type': 'text/plain' });
      response.end('Unauthorized');
      return;
    }
    if (request.method === 'POST' && url.pathname === '/v1/statement') {
      const sql = await readBody(request);
      this.received.push(sql);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' && value !== '' ? value : undefined;
      };
      const session = Object.fromEntries(
        (header('x-trino-session') ?? '')
          .split(',')
          .filter((pair) => pair.includes('='))
          .map(
            (pair) => pair.split(/=(.*)/s).map((part) => decodeURIComponent(part.trim())) as [string, string],
          ),
      );
      const maxRun = session.query_max_run_time;
      const id = `20260101_000000_${String(++this.counter).padStart(5, '0')}_fake0`;
      const query = new FakeQuery(id, sql, this, {
        catalog: header('x-trino-catalog'),
        schema: header('x-trino-schema'),
        maxRunMs: maxRun === undefined ? undefined : durationMs(maxRun),
      });
      this.queries.set(id, query);
      this.reply(response, base, query, undefined, `${base}/v1/statement/queued/${id}/${query.slug}/0`);
      return;
    }
    const paged = /^\/v1\/statement\/(?:queued|executing)\/([^/]+)\/([^/]+)\/(\d+)$/.exec(url.pathname);
    const killed = /^\/v1\/query\/([^/]+)$/.exec(url.pathname);
    const query = this.queries.get(paged?.[1] ?? killed?.[1] ?? '');
    if (query === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Query not found');
      return;
    }
    if (request.method === 'DELETE') {
      query.cancel();
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && paged !== null) {
      const rows = await query.poll();
      const next = query.finished
        ? undefined
        : `${base}/v1/statement/executing/${query.id}/${query.slug}/${++query.token}`;
      this.reply(response, base, query, rows, next);
      return;
    }
    response.writeHead(405).end();
  }

  private reply(
    response: ServerResponse,
    base: string,
    query: FakeQuery,
    rows: DuckDBValue[][] | undefined,
    nextUri: string | undefined,
  ): void {
    const columns = query.columns;
    const catalogTypes = /information_schema/i.test(query.sql);
    const body = {
      id: query.id,
      infoUri: `${base}/ui/query.html?${query.id}`,
      ...(nextUri === undefined ? {} : { nextUri }),
      ...(columns === undefined
        ? {}
        : {
            columns: columns.map((column) => ({
              name: column.name,
              type: column.type,
              typeSignature: typeSignature(column.type),
            })),
          }),
      ...(rows === undefined || columns === undefined
        ? {}
        : {
            data: rows.map((row) =>
              row.map((value, index) => {
                const column = columns[index]!;
                // The fake's catalog answers in Trino's type names, as Trino's information_schema does.
                if (catalogTypes && column.name === 'data_type' && typeof value === 'string') {
                  return trinoTypeOfName(value);
                }
                return column.duck === undefined
                  ? value
                  : trinoJsonValue(value, column.duck.typeId as DuckDBTypeId);
              }),
            ),
          }),
      stats: {
        state: query.state,
        queued: query.state === 'QUEUED',
        scheduled: query.state !== 'QUEUED',
        nodes: 1,
        totalSplits: 1,
        queuedSplits: 0,
        runningSplits: query.finished ? 0 : 1,
        completedSplits: query.finished ? 1 : 0,
        cpuTimeMillis: 0,
        wallTimeMillis: 0,
        queuedTimeMillis: 0,
        elapsedTimeMillis: 0,
        processedRows: 0,
        processedBytes: 0,
        peakMemoryBytes: 0,
        spilledBytes: 0,
      },
      ...(query.error === undefined
        ? {}
        : {
            error: {
              ...query.error,
              failureInfo: {
                type: 'io.trino.spi.TrinoException',
                message: query.error.message,
                suppressed: [],
                stack: [],
              },
            },
          }),
      warnings: [],
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(jsonText(body));
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
