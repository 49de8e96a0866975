/**
 * A fake Databricks SQL warehouse for tests: an HTTPS server on 127.0.0.1 (random port) that
 * speaks HiveServer2's TCLIService in Thrift binary protocol over HTTP POST, as a warehouse's
 * `http_path` does, with the TCLIService definitions the driver ships. Statements run on an
 * embedded DuckDB (one connection per session); results go back as Arrow batches with typed
 * column metadata (result-encoding.ts), operations run asynchronously and report their state
 * (running, finished, error with SQLSTATE, canceled, timed out by `queryTimeout`).
 *
 * What it does not do: LZ4 compression, cloud fetch, direct results, native Arrow types
 * (it refuses a client asking for them), session time zones other than UTC.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type DuckDBConnection, DuckDBInstance, type DuckDBResult, VARCHAR } from '@duckdb/node-api';
import { catalogColumns } from './catalog-columns.js';
import { selfSignedCertificate } from './certificate.js';
import { Int64, TCLIService, thrift, ttypes } from './driver-modules.js';
import {
  arrowBatch,
  arrowSchemaMessage,
  type ColumnEncoding,
  columnEncoding,
  tableSchema,
} from './result-encoding.js';
import {
  databricksOnlyCommand,
  explain,
  explainTarget,
  messageOf,
  toDuckDbSql,
  WarehouseSqlError,
  warehouseError,
} from './statements.js';

const { TOperationState, TStatusCode, TSparkRowSetType } = ttypes;

export interface FakeDatabricks {
  /** `127.0.0.1:<port>`, as `server_hostname`. */
  hostname: string;
  httpPath: string;
  token: string;
  catalog: string;
  /** The PEM of the server's self-signed certificate, for the client to trust. */
  certificate: string;
  /** Runs SQL on the fake's DuckDB with every right (fixture setup, snapshots), in catalog `catalog`. */
  admin(sql: string): Promise<unknown[][]>;
  /** Statements still executing whose text holds `marker`. */
  running(marker: string): number;
  /** Sessions open right now. */
  openSessions(): number;
  close(): Promise<void>;
}

interface Session {
  connection: DuckDBConnection;
}

interface Operation {
  session: Session;
  statement: string;
  state: number;
  executing: boolean;
  error?: WarehouseSqlError;
  columns: ColumnEncoding[];
  result?: DuckDBResult;
  /** Encoded rows read from DuckDB and not yet fetched. */
  pending: unknown[][];
  exhausted: boolean;
  timer?: NodeJS.Timeout;
}

const OK = () => new ttypes.TStatus({ statusCode: TStatusCode.SUCCESS_STATUS });
const failed = (message: string, sqlState?: string) =>
  new ttypes.TStatus({ statusCode: TStatusCode.ERROR_STATUS, errorMessage: message, sqlState });

export async function startFakeDatabricks(
  options: { token?: string; catalog?: string } = {},
): Promise<FakeDatabricks> {
  const token = options.token ?? `dapi${randomBytes(16).toString('hex')}`;
  const catalog = options.catalog ?? 'nao_fake';
  const httpPath = `/sql/1.0/warehouses/${randomBytes(8).toString('hex')}`;
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const adminConnection = await instance.connect();
  await adminConnection.run(`ATTACH ':memory:' AS ${catalog}; USE ${catalog}`);

  const sessions = new Map<string, Session>();
  const operations = new Map<string, Operation>();

  const sessionOf = (handle: { sessionId: { guid: Buffer } }): Session => {
    const session = sessions.get(handle.sessionId.guid.toString('hex'));
    if (session === undefined) throw new Error('Invalid SessionHandle');
    return session;
  };
  const operationOf = (handle: { operationId: { guid: Buffer } }): Operation | undefined =>
    operations.get(handle.operationId.guid.toString('hex'));

  // The driver prints handles as UUIDs, so a guid must be one.
  const uuid = () => Buffer.from(randomUUID().replaceAll('-', ''), 'hex');
  const newHandle = () => new ttypes.THandleIdentifier({ guid: uuid(), secret: uuid() });

  async function execute(operation: Operation): Promise<void> {
    const { connection } = operation.session;
    try {
      const target = explainTarget(operation.statement);
      if (target !== undefined) {
        const plan = await explain(connection, target);
        operation.columns = [columnEncoding('plan', VARCHAR)];
        operation.pending = [[plan]];
        operation.exhausted = true;
      } else {
        const command = databricksOnlyCommand(operation.statement);
        if (command !== undefined) {
          throw new WarehouseSqlError(
            'NOT_SUPPORTED_COMMAND',
            '0A000',
            `the fake warehouse does not run ${command}.`,
          );
        }
        const result = await connection.stream(toDuckDbSql(operation.statement));
        const types = result.columnTypes();
        operation.columns = result.columnNames().map((name, index) => columnEncoding(name, types[index]!));
        operation.result = result;
      }
      if (operation.state === TOperationState.RUNNING_STATE) operation.state = TOperationState.FINISHED_STATE;
    } catch (error) {
      if (operation.state === TOperationState.RUNNING_STATE) {
        operation.state = TOperationState.ERROR_STATE;
        operation.error = warehouseError(error);
      }
    } finally {
      operation.executing = false;
    }
  }

  /** Stops an operation the way the warehouse does: the state first, then DuckDB is interrupted. */
  function stop(operation: Operation, state: number): void {
    clearTimeout(operation.timer);
    if (
      operation.state !== TOperationState.RUNNING_STATE &&
      operation.state !== TOperationState.FINISHED_STATE
    )
      return;
    operation.state = state;
    operation.session.connection.interrupt();
  }

  async function readRows(operation: Operation, maxRows: number): Promise<unknown[][]> {
    while (operation.pending.length < maxRows && !operation.exhausted && operation.result !== undefined) {
      const chunk = await operation.result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) {
        operation.exhausted = true;
        break;
      }
      for (const row of chunk.getRows()) {
        operation.pending.push(
          row.map((value, index) => (value === null ? null : operation.columns[index]!.encode(value))),
        );
      }
    }
    return operation.pending.splice(0, maxRows);
  }

  const handler = {
    OpenSession: async (req: {
      configuration?: Record<string, string>;
      initialNamespace?: { catalogName?: string; schemaName?: string };
    }) => {
      const zone = req.configuration?.TIMEZONE;
      if (zone !== undefined && zone !== 'UTC') {
        return new ttypes.TOpenSessionResp({
          status: failed(`the fake warehouse serves the UTC time zone only, not ${zone}`),
          serverProtocolVersion: ttypes.TProtocolVersion.SPARK_CLI_SERVICE_PROTOCOL_V8,
        });
      }
      const wantedCatalog = req.initialNamespace?.catalogName ?? catalog;
      const schema = req.initialNamespace?.schemaName ?? 'main';
      const refusal = (message: string, sqlState: string) =>
        new ttypes.TOpenSessionResp({
          status: failed(message, sqlState),
          serverProtocolVersion: ttypes.TProtocolVersion.SPARK_CLI_SERVICE_PROTOCOL_V8,
        });
      if (wantedCatalog !== catalog) {
        return refusal(
          `[NO_SUCH_CATALOG_EXCEPTION] Catalog '${wantedCatalog}' was not found. SQLSTATE: 42704`,
          '42704',
        );
      }
      const found = await adminConnection.run(
        `SELECT 1 FROM duckdb_schemas() WHERE database_name = '${catalog}' AND schema_name = $1`,
        [schema],
      );
      if (found.rowCount === 0) {
        return refusal(
          `[SCHEMA_NOT_FOUND] The schema \`${catalog}\`.\`${schema}\` cannot be found. SQLSTATE: 42704`,
          '42704',
        );
      }
      const connection = await instance.connect();
      await connection.run(`USE ${catalog}."${schema.replaceAll('"', '""')}"; SET TimeZone = 'UTC'`);
      const handle = newHandle();
      sessions.set(handle.guid.toString('hex'), { connection });
      return new ttypes.TOpenSessionResp({
        status: OK(),
        serverProtocolVersion: ttypes.TProtocolVersion.SPARK_CLI_SERVICE_PROTOCOL_V8,
        sessionHandle: new ttypes.TSessionHandle({ sessionId: handle }),
        initialNamespace: new ttypes.TNamespace({ catalogName: catalog, schemaName: schema }),
      });
    },

    CloseSession: async (req: { sessionHandle: { sessionId: { guid: Buffer } } }) => {
      const key = req.sessionHandle.sessionId.guid.toString('hex');
      const session = sessions.get(key);
      if (session !== undefined) {
        sessions.delete(key);
        for (const [id, operation] of operations) {
          if (operation.session === session) {
            stop(operation, TOperationState.CLOSED_STATE);
            operations.delete(id);
          }
        }
        session.connection.closeSync();
      }
      return new ttypes.TCloseSessionResp({ status: OK() });
    },

    GetInfo: async () =>
      new ttypes.TGetInfoResp({
        status: OK(),
        infoValue: new ttypes.TGetInfoValue({ stringValue: 'Spark SQL' }),
      }),

    ExecuteStatement: async (req: {
      sessionHandle: { sessionId: { guid: Buffer } };
      statement: string;
      queryTimeout?: { toNumber(): number };
      useArrowNativeTypes?: {
        timestampAsArrow?: boolean;
        decimalAsArrow?: boolean;
        complexTypesAsArrow?: boolean;
      };
    }) => {
      const session = sessionOf(req.sessionHandle);
      const native = req.useArrowNativeTypes;
      if (native?.timestampAsArrow || native?.decimalAsArrow || native?.complexTypesAsArrow) {
        return new ttypes.TExecuteStatementResp({
          status: failed('the fake warehouse sends decimals, timestamps and nested values as text only'),
        });
      }
      const handle = newHandle();
      const operation: Operation = {
        session,
        statement: req.statement,
        state: TOperationState.RUNNING_STATE,
        executing: true,
        columns: [],
        pending: [],
        exhausted: false,
      };
      operations.set(handle.guid.toString('hex'), operation);
      const timeoutSeconds = req.queryTimeout?.toNumber() ?? 0;
      if (timeoutSeconds > 0) {
        operation.timer = setTimeout(
          () => stop(operation, TOperationState.TIMEDOUT_STATE),
          timeoutSeconds * 1000,
        );
      }
      void execute(operation);
      return new ttypes.TExecuteStatementResp({
        status: OK(),
        operationHandle: new ttypes.TOperationHandle({
          operationId: handle,
          operationType: ttypes.TOperationType.EXECUTE_STATEMENT,
          hasResultSet: true,
        }),
      });
    },

    GetColumns: async (req: {
      sessionHandle: { sessionId: { guid: Buffer } };
      catalogName?: string;
      schemaName?: string;
      tableName?: string;
    }) => {
      const session = sessionOf(req.sessionHandle);
      const { columns, rows: pending } = await catalogColumns(adminConnection, { catalog, request: req });
      const handle = newHandle();
      operations.set(handle.guid.toString('hex'), {
        session,
        statement: 'GetColumns',
        state: TOperationState.FINISHED_STATE,
        executing: false,
        columns,
        pending,
        exhausted: true,
      });
      return new ttypes.TGetColumnsResp({
        status: OK(),
        operationHandle: new ttypes.TOperationHandle({
          operationId: handle,
          operationType: ttypes.TOperationType.GET_COLUMNS,
          hasResultSet: true,
        }),
      });
    },

    GetOperationStatus: async (req: { operationHandle: { operationId: { guid: Buffer } } }) => {
      const operation = operationOf(req.operationHandle);
      if (operation === undefined) {
        return new ttypes.TGetOperationStatusResp({ status: failed('Invalid OperationHandle') });
      }
      const error = operation.error;
      const timedOut = operation.state === TOperationState.TIMEDOUT_STATE;
      return new ttypes.TGetOperationStatusResp({
        status: OK(),
        operationState: operation.state,
        hasResultSet: true,
        ...(error === undefined
          ? {}
          : { sqlState: error.sqlState, errorMessage: error.message, displayMessage: error.message }),
        ...(timedOut
          ? { errorMessage: 'Query has been timed out', displayMessage: 'Query has been timed out' }
          : {}),
      });
    },

    GetResultSetMetadata: async (req: { operationHandle: { operationId: { guid: Buffer } } }) => {
      const operation = operationOf(req.operationHandle);
      if (operation === undefined || operation.state !== TOperationState.FINISHED_STATE) {
        return new ttypes.TGetResultSetMetadataResp({ status: failed('Invalid OperationHandle') });
      }
      return new ttypes.TGetResultSetMetadataResp({
        status: OK(),
        schema: tableSchema(operation.columns),
        resultFormat: TSparkRowSetType.ARROW_BASED_SET,
        arrowSchema: arrowSchemaMessage(operation.columns),
        lz4Compressed: false,
      });
    },

    FetchResults: async (req: {
      operationHandle: { operationId: { guid: Buffer } };
      maxRows: { toNumber(): number };
    }) => {
      const operation = operationOf(req.operationHandle);
      if (operation === undefined || operation.state !== TOperationState.FINISHED_STATE) {
        return new ttypes.TFetchResultsResp({ status: failed('Invalid OperationHandle') });
      }
      try {
        const rows = await readRows(operation, Math.max(1, req.maxRows.toNumber()));
        return new ttypes.TFetchResultsResp({
          status: OK(),
          hasMoreRows: operation.pending.length > 0 || !operation.exhausted,
          results: new ttypes.TRowSet({
            startRowOffset: new Int64(0),
            rows: [],
            arrowBatches: rows.length === 0 ? [] : [arrowBatch(operation.columns, rows)],
          }),
        });
      } catch (error) {
        return new ttypes.TFetchResultsResp({ status: failed(warehouseError(error).message) });
      }
    },

    CancelOperation: async (req: { operationHandle: { operationId: { guid: Buffer } } }) => {
      const operation = operationOf(req.operationHandle);
      if (operation !== undefined) stop(operation, TOperationState.CANCELED_STATE);
      return new ttypes.TCancelOperationResp({ status: OK() });
    },

    CloseOperation: async (req: { operationHandle: { operationId: { guid: Buffer } } }) => {
      const key = req.operationHandle.operationId.guid.toString('hex');
      const operation = operations.get(key);
      if (operation !== undefined) {
        stop(operation, TOperationState.CLOSED_STATE);
        operations.delete(key);
      }
      return new ttypes.TCloseOperationResp({ status: OK() });
    },
  };

  const processor = new TCLIService.Processor(handler);
  const certificate = selfSignedCertificate();
  const expectedAuthorization = `Bearer ${token}`;
  const server: Server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      if (request.method !== 'POST' || request.url !== httpPath) {
        response.writeHead(404).end(`No warehouse at ${request.url}`);
        return;
      }
      if (request.headers.authorization !== expectedAuthorization) {
        response.writeHead(403).end('Invalid access token.');
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const receive = thrift.TBufferedTransport.receiver((transport: unknown) => {
          const output = new thrift.TBinaryProtocol(
            new thrift.TBufferedTransport(undefined, (reply: Buffer) => {
              response.writeHead(200, { 'content-type': 'application/x-thrift' }).end(reply);
            }),
          );
          try {
            processor.process(new thrift.TBinaryProtocol(transport), output);
          } catch (error) {
            response.writeHead(500).end(messageOf(error));
          }
        });
        receive(Buffer.concat(chunks));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    hostname: `127.0.0.1:${port}`,
    httpPath,
    token,
    catalog,
    certificate: certificate.cert,
    admin: async (sql) => (await adminConnection.runAndReadAll(sql)).getRows() as unknown[][],
    running: (marker) =>
      [...operations.values()].filter(
        (operation) => operation.executing && operation.statement.includes(marker),
      ).length,
    openSessions: () => sessions.size,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const operation of operations.values()) stop(operation, TOperationState.CLOSED_STATE);
      for (const session of sessions.values()) session.connection.closeSync();
      adminConnection.closeSync();
      instance.closeSync();
    },
  };
}
