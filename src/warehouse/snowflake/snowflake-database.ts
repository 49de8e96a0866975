import type { Connection, ConnectionOptions, RowStatement, SnowflakeError } from 'snowflake-sdk';
import { quietAwsSdkNodeNotice } from '../aws-sdk-notice.js';
import type { CellValue, ColumnInfo, Database, QueryOptions, QueryResult, TableInfo } from '../database.js';
import type { DatabaseConfig } from '../database-config.js';
import { loadOptionalDriver } from '../optional-driver.js';
import { type QueryLimits, startQuery } from '../query-control.js';
import { ServerConnection, type ServerErrorVerdict } from '../server-connection.js';
import { quoteLiteral } from '../sql-literal.js';
import { tablesOfColumns } from '../table-list.js';
import { readOnlyViolation } from '../warehouse-error.js';
import { describeStatementType, isReadOnlyStatementType } from './snowflake-statement-type.js';
import { snowflakeCellConverter, snowflakeTypeName } from './snowflake-value.js';

export type SnowflakeDatabaseConfig = Extract<DatabaseConfig, { type: 'snowflake' }>;

type SnowflakeSdk = typeof import('snowflake-sdk');

export interface OpenSnowflakeOptions {
  /** Loads snowflake-sdk; injectable so the missing-package path can be tested. */
  importDriver?: () => Promise<{ default: SnowflakeSdk }>;
}

/** How long the log-in may take before nao gives up on an account that does not answer. */
const LOGIN_TIMEOUT_MS = 30_000;

const AUTHENTICATORS: Record<NonNullable<SnowflakeDatabaseConfig['authenticator']>, string> = {
  externalbrowser: 'EXTERNALBROWSER',
  username_password_mfa: 'USERNAME_PASSWORD_MFA',
  jwt_token: 'SNOWFLAKE_JWT',
  oauth: 'OAUTH',
};

/**
 * Logs in to a Snowflake account with snowflake-sdk and checks that the database answers.
 *
 * Snowflake has no read-only session or transaction, so every statement is first compiled
 * without running (`describeOnly`) and runs only when the account reports it as a query, SHOW
 * or DESCRIBE (snowflake-statement-type.ts); one statement per request (MULTI_STATEMENT_COUNT
 * = 1). Each runs with STATEMENT_TIMEOUT_IN_SECONDS from its time limit and is aborted through
 * the driver on abort, close or when the limit passes; rows are streamed, only up to the cap.
 *
 * What the check does not cover: a query can call functions with effects outside the data
 * (SYSTEM$CANCEL_ALL_QUERIES, SYSTEM$ABORT_SESSION, external functions). Give nao a role
 * with USAGE on the warehouse, database and schemas and SELECT on the tables only.
 */
export async function openSnowflakeDatabase(
  config: SnowflakeDatabaseConfig,
  options: OpenSnowflakeOptions = {},
): Promise<Database> {
  const account = accountOf(config);
  // A CommonJS package: its API is the module's default export.
  const sdk = (
    await loadOptionalDriver({
      database: config.name,
      dialect: 'snowflake',
      target: account.target,
      packageName: 'snowflake-sdk',
      importer:
        options.importDriver ??
        (() => {
          quietAwsSdkNodeNotice();
          return import('snowflake-sdk');
        }),
    })
  ).default;
  const database = new SnowflakeDatabase(config, sdk, account);
  await database.check();
  return database;
}

/** Where nao logs in: the driver's `accessUrl`, and its description for messages. */
interface SnowflakeAccount {
  fields: { host: string; port: number; user: string; password: string | undefined; database: string };
  target: string;
  accessUrl: string;
}

function accountOf(config: SnowflakeDatabaseConfig): SnowflakeAccount {
  const host = config.host ?? `${config.account_id}.snowflakecomputing.com`;
  const protocol = config.protocol ?? 'https';
  const port = config.port ?? (protocol === 'https' ? 443 : 80);
  const fields = { host, port, user: config.username, password: config.password, database: config.database };
  return {
    fields,
    target: `${host}:${port}/${config.database} as user ${config.username}`,
    accessUrl: `${protocol}://${host}:${port}`,
  };
}

class SnowflakeDatabase implements Database {
  readonly dialect = 'snowflake' as const;
  readonly name: string;
  private readonly server: ServerConnection;
  /** Made by check(): the driver validates its options (a key file, the account) as it makes it. */
  private connection: Connection | undefined;
  /** Statements in flight by nao's own number, for the cancels of ServerConnection. */
  private readonly statements = new Map<number, RowStatement>();
  private nextStatement = 1;

  constructor(
    private readonly config: SnowflakeDatabaseConfig,
    private readonly sdk: SnowflakeSdk,
    private readonly account: SnowflakeAccount,
  ) {
    this.name = config.name;
    this.server = new ServerConnection({
      name: config.name,
      dialect: this.dialect,
      fields: account.fields,
      defaultPort: account.fields.port,
      cancelSession: (id) => this.cancelStatement(id),
      classify: classifyError,
    });
  }

  check(): Promise<void> {
    return this.server.open(
      async () => {
        // The driver logs to the console by default, which would mix with nao's own output.
        this.sdk.configure({ logLevel: 'OFF' });
        const connection = this.sdk.createConnection(connectionOptions(this.config, this.account.accessUrl));
        this.connection = connection;
        await login(connection);
        const [[database, schema] = []] = await this.select('SELECT CURRENT_DATABASE(), CURRENT_SCHEMA()');
        // A log-in names a database or schema the role cannot use without failing: every name would.
        if (database === null) {
          throw new Error(
            `database ${this.config.database} does not exist or the role cannot use it; check \`database\` and \`role\``,
          );
        }
        if (this.config.schema !== undefined && schema === null) {
          throw new Error(
            `schema ${this.config.schema} does not exist or the role cannot use it; check \`schema\``,
          );
        }
      },
      () => this.destroy(),
    );
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    const limits = startQuery({ database: this.name, dialect: this.dialect, sql, query: options });
    await this.server.acquire(async () => this.connection);
    const id = this.nextStatement++;
    const watch = this.server.watch(limits, id);
    try {
      await this.refuseWrites(sql, limits, id);
      watch.throwIfStopped();
      const statement = await this.execute({ sqlText: sql, parameters: statementParameters(limits) }, id);
      const result = await readRows(statement, limits.maxRows);
      // Stopped while its rows streamed: the caller asked for no result.
      watch.throwIfStopped();
      return result;
    } catch (error) {
      // A refusal of nao's own stands too, unless nao stopped the query meanwhile.
      throw watch.failure(error);
    } finally {
      this.statements.delete(id);
      await watch.finish();
    }
  }

  async listTables(): Promise<TableInfo[]> {
    await this.server.acquire(async () => this.connection);
    const schemaFilter =
      this.config.schema === undefined ? '' : `AND c.table_schema = ${quoteLiteral(this.config.schema)}`;
    try {
      const rows = await this.select(
        `SELECT c.table_schema, c.table_name, c.column_name, c.data_type, c.numeric_precision, c.numeric_scale
           FROM information_schema.columns c
          WHERE c.table_schema <> 'INFORMATION_SCHEMA' ${schemaFilter}
          ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
      );
      return tablesOfColumns(
        rows.map(([schema, table, name, type, precision, scale]) => ({
          schema: String(schema),
          table: String(table),
          column: { name: String(name), type: columnType(type ?? null, precision ?? null, scale ?? null) },
        })),
      );
    } catch (error) {
      throw this.server.queryError(error, undefined);
    }
  }

  close(): Promise<void> {
    return this.server.close(() => this.destroy());
  }

  /** Refuses, before it runs, a statement the account reports as anything but a read. */
  private async refuseWrites(sql: string, limits: QueryLimits, id: number): Promise<void> {
    // The driver itself runs what starts with PUT or GET, copying local files to or from a
    // stage as soon as the account answers, even a describe request: never sent.
    if (/^(PUT|GET)/i.test(sql.trim())) {
      throw readOnlyViolation({
        database: this.name,
        dialect: this.dialect,
        engineMessage: 'PUT and GET transfer files between this machine and a stage; nao never sends them',
      });
    }
    const parameters = statementParameters(limits);
    // snowflake-sdk has no getter for the statementTypeId of a response; its Result keeps it
    // (`_statementTypeId`), and with asyncExec the complete callback hands the Result over.
    // Should a driver version move it, every statement is refused, never run unchecked.
    const result = await this.execute(
      { sqlText: sql, describeOnly: true, asyncExec: true, streamResult: false, parameters },
      id,
    );
    const typeId = (result.result as { _statementTypeId?: unknown } | undefined)?._statementTypeId;
    if (typeof typeId !== 'number') {
      // A statement that does not compile: asked again without asyncExec, the driver reports why.
      await this.execute({ sqlText: sql, describeOnly: true, parameters }, id);
      throw readOnlyViolation({
        database: this.name,
        dialect: this.dialect,
        engineMessage:
          'Snowflake did not report the type of the statement, so nao cannot tell that it only reads',
      });
    }
    if (!isReadOnlyStatementType(typeId)) {
      throw readOnlyViolation({
        database: this.name,
        dialect: this.dialect,
        engineMessage: `Snowflake reports ${describeStatementType(typeId)}; nao runs only SELECT, SHOW and DESCRIBE`,
      });
    }
  }

  /** Runs a statement; resolves once the account answered (its rows are then streamed). */
  private execute(
    options: {
      sqlText: string;
      parameters: Record<string, unknown>;
      describeOnly?: boolean;
      asyncExec?: boolean;
      streamResult?: boolean;
    },
    id: number,
  ): Promise<RowStatement & { result?: unknown }> {
    const connection = this.connection;
    if (connection === undefined) return Promise.reject(new Error('not logged in'));
    return new Promise((resolve, reject) => {
      const statement = connection.execute({
        streamResult: true,
        fetchAsString: ['Number'],
        rowMode: 'array',
        ...options,
        complete: (error: SnowflakeError | undefined, done: RowStatement, result?: unknown) => {
          if (error) reject(error);
          else resolve(Object.assign(done, { result }));
        },
      }) as RowStatement;
      this.statements.set(id, statement);
    });
  }

  /** The rows of one of nao's own statements, read whole. */
  private async select(sql: string): Promise<CellValue[][]> {
    const id = this.nextStatement++;
    try {
      const statement = await this.execute({ sqlText: sql, parameters: { MULTI_STATEMENT_COUNT: 1 } }, id);
      return (await readRows(statement, Number.POSITIVE_INFINITY)).rows;
    } finally {
      this.statements.delete(id);
    }
  }

  private cancelStatement(id: number): Promise<void> {
    const statement = this.statements.get(id);
    if (statement === undefined) return Promise.resolve();
    return new Promise((resolve) => statement.cancel(() => resolve()));
  }

  private destroy(): Promise<void> {
    const connection = this.connection;
    if (connection === undefined || !connection.isUp()) return Promise.resolve();
    return new Promise((resolve) => connection.destroy(() => resolve()));
  }
}

/** Logs in; an account that does not answer in time fails, and a session it opens later is closed. */
function login(connection: Connection): Promise<void> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`the account did not answer within ${LOGIN_TIMEOUT_MS / 1000} s`));
    }, LOGIN_TIMEOUT_MS);
    connection.connect((error) => {
      clearTimeout(timer);
      if (timedOut) {
        if (!error) connection.destroy(() => {});
      } else if (error) reject(error);
      else resolve();
    });
  });
}

function connectionOptions(config: SnowflakeDatabaseConfig, accessUrl: string): ConnectionOptions {
  const authenticator =
    config.authenticator === undefined
      ? config.private_key_path === undefined
        ? undefined
        : 'SNOWFLAKE_JWT'
      : AUTHENTICATORS[config.authenticator];
  return {
    account: config.account_id,
    username: config.username,
    accessUrl,
    database: config.database,
    application: 'nao',
    clientSessionKeepAlive: false,
    // Without it, fetchAsString gives the text 'NULL' for a NULL number.
    representNullAsStringNull: false,
    // A log-in the network refuses fails at once instead of after minutes of retries.
    sfRetryMaxLoginRetries: 1,
    ...(config.password === undefined
      ? {}
      : authenticator === 'OAUTH'
        ? { token: config.password }
        : { password: config.password }),
    ...(config.schema === undefined ? {} : { schema: config.schema }),
    ...(config.warehouse === undefined ? {} : { warehouse: config.warehouse }),
    ...(config.role === undefined ? {} : { role: config.role }),
    ...(authenticator === undefined ? {} : { authenticator }),
    ...(config.private_key_path === undefined ? {} : { privateKeyPath: config.private_key_path }),
    ...(config.passphrase === undefined ? {} : { privateKeyPass: config.passphrase }),
  } as ConnectionOptions;
}

/** Session parameters of one statement: its time limit (whole seconds, at least one) and one statement only. */
function statementParameters(limits: QueryLimits): Record<string, unknown> {
  return {
    MULTI_STATEMENT_COUNT: 1,
    ...(limits.timeoutMs === undefined
      ? {}
      : { STATEMENT_TIMEOUT_IN_SECONDS: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) }),
  };
}

/** The first `maxRows` rows of an answered statement, streamed only as far as needed. */
async function readRows(statement: RowStatement, maxRows: number): Promise<QueryResult> {
  const sdkColumns = statement.getColumns() ?? [];
  const columns: ColumnInfo[] = sdkColumns.map((column) => ({
    name: column.getName(),
    type: snowflakeTypeName(column),
  }));
  const converters = sdkColumns.map(snowflakeCellConverter);
  const total = statement.getNumRows() ?? 0;
  const wanted = Math.min(total, maxRows);
  const rows: CellValue[][] = [];
  if (wanted > 0) {
    await new Promise<void>((resolve, reject) => {
      statement
        .streamRows({ start: 0, end: wanted - 1 })
        .on('data', (row: unknown[]) => {
          rows.push(row.map((value, index) => (value === null ? null : converters[index]!(value))));
        })
        .on('error', reject)
        .on('end', () => resolve());
    });
  }
  return { columns, rows, truncated: total > rows.length };
}

function columnType(type: CellValue, precision: CellValue, scale: CellValue): string {
  const name = String(type);
  return name === 'NUMBER' && precision !== null ? `NUMBER(${precision},${scale ?? 0})` : name;
}

/**
 * Snowflake's error codes for nao's statement timeout (000630) and for a request holding more
 * statements than MULTI_STATEMENT_COUNT = 1 allows (000008): a write hidden after a read.
 */
function classifyError(error: unknown, message: string): ServerErrorVerdict {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code === '000630') return { kind: 'timeout', engineMessage: message };
  if (code === '000008')
    return { kind: 'read-only', engineMessage: `${message} (nao sends one statement at a time)` };
  return { kind: 'failed', engineMessage: message };
}
