/**
 * A Snowflake account on 127.0.0.1, speaking the REST protocol snowflake-sdk speaks: log-in
 * (`/session/v1/login-request`), statements (`/queries/v1/query-request`, answered in full or
 * with "333333 in progress" and a `getResultUrl` to poll), result chunks beyond the inline
 * `rowset`, aborts (`/queries/<id>/abort-request`, `/queries/v1/abort-request`), session
 * delete, heartbeat and telemetry. Statements run on an embedded DuckDB (snowflake-sql.ts
 * rewrites the few Snowflake spellings it lacks); responses carry the rowtype/rowset JSON
 * format (rowtype.ts), the `statementTypeId` (statement-type.ts, also for `describeOnly`
 * requests, which compile without running) and Snowflake's error codes: 390100 wrong
 * password, 002003 compilation errors, 000630 STATEMENT_TIMEOUT_IN_SECONDS passed, 000604
 * cancelled, 000008 more statements than MULTI_STATEMENT_COUNT.
 *
 * What it does not do: a real account materialises a whole result before answering; the fake
 * reads at most `RESULT_ROW_LIMIT` rows of one (so an endless query answers at once, as a
 * capped one must be read), and TIMESTAMP_TZ values all come back at offset +00:00.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { type RowType, resultCodec, STATUS_ROWTYPE } from './rowtype.js';
import { toDuckDbSql } from './snowflake-sql.js';
import { STATEMENT_TYPE_IDS, splitStatements, statementTypeOf } from './statement-type.js';

/** How long one request waits for a statement before answering "in progress". */
const HOLD_MS = 300;
/** Rows of a result sent inline; the rest are chunks fetched by URL. */
const INLINE_ROWS = 1000;
const CHUNK_ROWS = 4000;
export const RESULT_ROW_LIMIT = 100_000;

export interface FakeSnowflakeOptions {
  /** The account's one user. */
  user: string;
  password: string;
  /** Database and schema names the fake answers for (DuckDB's `memory` catalog and a schema of it). */
  database: string;
  schema: string;
}

export interface FakeSnowflake {
  /** `http://127.0.0.1:<port>`, for the driver's `accessUrl`. */
  url: string;
  port: number;
  /** The account's data, for fixtures and snapshots. */
  admin: DuckDBConnection;
  /** Statements still running whose text contains `marker`. */
  running(marker: string): number;
  /** Sessions logged in and not deleted. */
  sessions(): number;
  /** Result chunks the driver fetched so far. */
  chunkRequests(): number;
  /** The session parameters of every statement request, in order. */
  statementParameters(): Record<string, unknown>[];
  close(): Promise<void>;
}

interface Session {
  token: string;
  masterToken: string;
  id: number;
}

interface Statement {
  queryId: string;
  requestId: string | undefined;
  sql: string;
  done: boolean;
  outcome: Promise<Reply>;
  /** Set when it ended early; wins over what DuckDB then answers. */
  stop(reply: Reply): void;
}

type Reply =
  | { success: true; data: Record<string, unknown> }
  | { success: false; code: string; message: string; sqlState: string };

const SESSION_PARAMETERS = [
  { name: 'TIMEZONE', value: 'UTC' },
  { name: 'BINARY_OUTPUT_FORMAT', value: 'HEX' },
  { name: 'DATE_OUTPUT_FORMAT', value: 'YYYY-MM-DD' },
  { name: 'TIME_OUTPUT_FORMAT', value: 'HH24:MI:SS' },
  { name: 'TIMESTAMP_OUTPUT_FORMAT', value: 'YYYY-MM-DD HH24:MI:SS.FF3 TZHTZM' },
  { name: 'TIMESTAMP_NTZ_OUTPUT_FORMAT', value: 'YYYY-MM-DD HH24:MI:SS.FF3' },
  { name: 'TIMESTAMP_LTZ_OUTPUT_FORMAT', value: '' },
  { name: 'TIMESTAMP_TZ_OUTPUT_FORMAT', value: '' },
  { name: 'CLIENT_RESULT_CHUNK_SIZE', value: 160 },
  { name: 'CLIENT_SESSION_KEEP_ALIVE', value: false },
];

export async function startFakeSnowflake(options: FakeSnowflakeOptions): Promise<FakeSnowflake> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const admin = await instance.connect();
  await admin.run(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
  const sessions = new Map<string, Session>();
  const statements = new Map<string, Statement>();
  const chunks = new Map<string, string>();
  let nextSessionId = 1;
  let chunkRequests = 0;
  const parameterLog: Record<string, unknown>[] = [];
  let url = '';

  const fail = (code: string, message: string, sqlState = '42000'): Reply => ({
    success: false,
    code,
    message,
    sqlState,
  });

  async function run(statement: Statement, body: Record<string, unknown>, timeoutSeconds: number) {
    const connection = await instance.connect();
    let stopped: Reply | undefined;
    statement.stop = (reply) => {
      stopped ??= reply;
      connection.interrupt();
    };
    const timer =
      timeoutSeconds > 0
        ? setTimeout(
            () =>
              statement.stop(
                fail(
                  '000630',
                  `Statement reached its statement or warehouse timeout of ${timeoutSeconds} second(s) and was canceled.`,
                  '57014',
                ),
              ),
            timeoutSeconds * 1000,
          )
        : undefined;
    try {
      await connection.run(`SET TimeZone = 'UTC'; SET search_path = '"${options.schema}"'`);
      const result = await connection.stream(toDuckDbSql(statement.sql));
      const codec = resultCodec({
        names: result.columnNames(),
        types: result.columnTypes(),
        database: options.database,
        schema: options.schema,
      });
      const rows: (string | null)[][] = [];
      while (rows.length < RESULT_ROW_LIMIT) {
        if (stopped) break;
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        for (const row of chunk.getRows() as DuckDBValue[][]) {
          if (rows.length >= RESULT_ROW_LIMIT) break;
          rows.push(codec.encodeRow(row));
        }
      }
      if (stopped) return stopped;
      return resultReply({ statement, rowtype: codec.rowtype, rows, body });
    } catch (error) {
      if (stopped) return stopped;
      const message = error instanceof Error ? error.message : String(error);
      return fail('002003', `SQL compilation error:\n${message}`);
    } finally {
      if (timer) clearTimeout(timer);
      statement.done = true;
      connection.closeSync();
    }
  }

  function resultReply(options: {
    statement: Statement;
    rowtype: RowType[];
    rows: (string | null)[][];
    body: Record<string, unknown>;
  }): Reply {
    const { statement, rowtype, rows } = options;
    const inline = rows.slice(0, INLINE_ROWS);
    const chunkList: { url: string; rowCount: number; uncompressedSize: number; compressedSize: number }[] =
      [];
    for (let start = INLINE_ROWS; start < rows.length; start += CHUNK_ROWS) {
      const part = rows.slice(start, start + CHUNK_ROWS);
      const text = part.map((row) => JSON.stringify(row)).join(',');
      const key = `${statement.queryId}-${chunkList.length}`;
      chunks.set(key, text);
      chunkList.push({
        url: `${url}/fake-chunks/${key}`,
        rowCount: part.length,
        uncompressedSize: text.length,
        compressedSize: text.length,
      });
    }
    return {
      success: true,
      data: {
        parameters: [...SESSION_PARAMETERS, ...statementParameters(options.body)],
        rowtype,
        rowset: inline,
        total: rows.length,
        returned: rows.length,
        queryId: statement.queryId,
        databaseProvider: null,
        finalDatabaseName: databaseName(),
        finalSchemaName: schemaName(),
        finalWarehouseName: 'FAKE_WH',
        finalRoleName: 'NAO_READER',
        numberOfBinds: 0,
        arrayBindSupported: false,
        statementTypeId: statementTypeOf(statement.sql),
        version: 1,
        sendResultTime: Date.now(),
        queryResultFormat: 'json',
        ...(chunkList.length > 0 ? { chunks: chunkList, chunkHeaders: {} } : {}),
      },
    };
  }

  const databaseName = () => options.database.toUpperCase();
  const schemaName = () => options.schema.toUpperCase();

  function statementParameters(body: Record<string, unknown>) {
    const parameters = (body.parameters ?? {}) as Record<string, unknown>;
    return Object.entries(parameters).map(([name, value]) => ({ name, value }));
  }

  async function describe(sql: string): Promise<Reply> {
    const typeId = statementTypeOf(sql);
    const queryId = randomUUID();
    const base = {
      parameters: SESSION_PARAMETERS,
      rowset: [],
      total: 0,
      returned: 0,
      queryId,
      statementTypeId: typeId,
      version: 1,
      queryResultFormat: 'json',
      finalDatabaseName: databaseName(),
      finalSchemaName: schemaName(),
    };
    if (typeId !== STATEMENT_TYPE_IDS.select) {
      return { success: true, data: { ...base, rowtype: STATUS_ROWTYPE } };
    }
    const connection = await instance.connect();
    try {
      await connection.run(`SET search_path = '"${options.schema}"'`);
      const prepared = await connection.prepare(toDuckDbSql(sql));
      const names = Array.from({ length: prepared.columnCount }, (_, index) => prepared.columnName(index));
      const types = Array.from({ length: prepared.columnCount }, (_, index) => prepared.columnType(index));
      const { rowtype } = resultCodec({ names, types, database: options.database, schema: options.schema });
      return { success: true, data: { ...base, rowtype } };
    } catch (error) {
      return fail(
        '002003',
        `SQL compilation error:\n${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      connection.closeSync();
    }
  }

  /** The reply of a statement once it is done, or "in progress" after HOLD_MS. */
  async function answer(statement: Statement): Promise<Record<string, unknown>> {
    const inProgress = Symbol('in progress');
    const reply = await Promise.race([
      statement.outcome,
      new Promise<typeof inProgress>((resolve) => setTimeout(() => resolve(inProgress), HOLD_MS)),
    ]);
    if (reply === inProgress) {
      return {
        success: true,
        code: '333333',
        message: 'Query execution in progress. Query will be continued in the next request.',
        data: {
          queryId: statement.queryId,
          getResultUrl: `/queries/${statement.queryId}/result`,
          queryAbortsAfterSecs: 300,
          progressDesc: null,
        },
      };
    }
    return envelope(reply, statement.queryId);
  }

  function envelope(reply: Reply, queryId: string): Record<string, unknown> {
    if (reply.success) return { success: true, code: null, message: null, data: reply.data };
    return {
      success: false,
      code: reply.code,
      message: reply.message,
      data: {
        queryId,
        sqlState: reply.sqlState,
        errorCode: reply.code,
        internalError: false,
        age: 0,
        type: reply.code === '002003' ? 'COMPILATION' : 'EXECUTION',
      },
    };
  }

  async function queryRequest(requestUrl: URL, body: Record<string, unknown>) {
    const sql = String(body.sqlText ?? '');
    const parameters = (body.parameters ?? {}) as Record<string, unknown>;
    parameterLog.push(parameters);
    const parts = splitStatements(sql);
    const wanted = Number(parameters.MULTI_STATEMENT_COUNT ?? 1);
    if (parts.length === 0) return envelope(fail('000900', 'Empty SQL statement.'), randomUUID());
    if (wanted !== 0 && parts.length !== wanted) {
      return envelope(
        fail(
          '000008',
          `Actual statement count ${parts.length} did not match the desired statement count ${wanted}.`,
          '0A000',
        ),
        randomUUID(),
      );
    }
    if (body.describeOnly === true) return envelope(await describe(sql), randomUUID());
    const statement: Statement = {
      queryId: randomUUID(),
      requestId: requestUrl.searchParams.get('requestId') ?? undefined,
      sql,
      done: false,
      outcome: Promise.resolve(fail('000000', 'not started')),
      stop: () => {},
    };
    statements.set(statement.queryId, statement);
    statement.outcome = run(statement, body, Number(parameters.STATEMENT_TIMEOUT_IN_SECONDS ?? 0));
    return answer(statement);
  }

  function abort(statement: Statement | undefined) {
    if (statement && !statement.done) statement.stop(fail('000604', 'SQL execution canceled', '57014'));
  }

  async function route(request: IncomingMessage, body: Record<string, unknown>) {
    const requestUrl = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = requestUrl.pathname;
    if (path === '/session/v1/login-request') {
      const data = (body.data ?? {}) as Record<string, unknown>;
      if (data.LOGIN_NAME !== options.user || data.PASSWORD !== options.password) {
        return {
          success: false,
          code: '390100',
          message: 'Incorrect username or password was specified.',
          data: { nextAction: 'RETRY_LOGIN', authnMethod: 'USERNAME_PASSWORD' },
        };
      }
      const session: Session = {
        token: `ver:1-hint:1-${randomBytes(12).toString('hex')}`,
        masterToken: `ver:1-hint:1-${randomBytes(12).toString('hex')}`,
        id: nextSessionId++,
      };
      sessions.set(session.token, session);
      return {
        success: true,
        code: null,
        message: null,
        data: {
          token: session.token,
          masterToken: session.masterToken,
          validityInSeconds: 3600,
          masterValidityInSeconds: 14400,
          sessionId: session.id,
          parameters: SESSION_PARAMETERS,
          sessionInfo: {
            databaseName: databaseName(),
            schemaName: schemaName(),
            warehouseName: 'FAKE_WH',
            roleName: 'NAO_READER',
          },
          serverVersion: '9.0.0',
        },
      };
    }
    const token = /Snowflake Token="([^"]*)"/.exec(request.headers.authorization ?? '')?.[1];
    const session = token === undefined ? undefined : sessions.get(token);
    if (path.startsWith('/fake-chunks/')) {
      chunkRequests++;
      return chunks.get(path.slice('/fake-chunks/'.length)) ?? '';
    }
    if (session === undefined) {
      return {
        success: false,
        code: '390112',
        message: 'Your session has expired. Please login again.',
        data: null,
      };
    }
    if (path === '/session' && requestUrl.searchParams.get('delete') === 'true') {
      sessions.delete(session.token);
      return { success: true, code: null, message: null, data: null };
    }
    if (path === '/queries/v1/query-request') return queryRequest(requestUrl, body);
    if (path === '/queries/v1/abort-request') {
      for (const statement of statements.values()) {
        if (statement.requestId === body.requestId) abort(statement);
      }
      return { success: true, code: null, message: null, data: null };
    }
    const byId = /^\/queries\/([^/]+)\/(result|abort-request)$/.exec(path);
    if (byId) {
      const statement = statements.get(byId[1]!);
      if (byId[2] === 'abort-request') {
        abort(statement);
        return { success: true, code: null, message: null, data: null };
      }
      if (statement === undefined)
        return envelope(fail('000709', `Statement ${byId[1]} not found`), byId[1]!);
      return answer(statement);
    }
    // Heartbeat, telemetry and anything else the driver reports: acknowledged.
    return { success: true, code: null, message: null, data: null };
  }

  const server = createServer((request, response: ServerResponse) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      void (async () => {
        let raw = Buffer.concat(parts);
        if (request.headers['content-encoding'] === 'gzip' && raw.length > 0) raw = gunzipSync(raw);
        const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
        const reply = await route(request, body);
        if (typeof reply === 'string') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end(reply);
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        }
      })().catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    admin,
    running: (marker) => [...statements.values()].filter((s) => !s.done && s.sql.includes(marker)).length,
    sessions: () => sessions.size,
    chunkRequests: () => chunkRequests,
    statementParameters: () => [...parameterLog],
    async close() {
      for (const statement of statements.values()) abort(statement);
      await Promise.allSettled([...statements.values()].map((statement) => statement.outcome));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      admin.closeSync();
      instance.closeSync();
    },
  };
}
