import { NaoError } from '../errors/index.js';
import type { DatabaseDialect } from './database.js';

export type WarehouseErrorCode =
  | 'CONNECTION_FAILED'
  | 'QUERY_FAILED'
  | 'QUERY_TIMEOUT'
  | 'QUERY_OUT_OF_MEMORY'
  | 'READ_ONLY_VIOLATION'
  | 'DATABASE_CLOSED'
  | 'INVALID_QUERY_OPTIONS';

/**
 * Every failure of a warehouse: it names the configured database, and keeps the engine's own
 * words apart (`engineMessage`) so a tool can hand just those back to the model.
 */
export class WarehouseError extends NaoError {
  declare readonly code: WarehouseErrorCode;
  /** The `name` of the database in nao_config.yaml. */
  readonly database: string;
  readonly dialect: DatabaseDialect;
  readonly engineMessage: string | undefined;

  constructor(options: {
    code: WarehouseErrorCode;
    database: string;
    dialect: DatabaseDialect;
    message: string;
    engineMessage?: string;
    cause?: unknown;
  }) {
    super({ code: options.code, message: options.message, cause: options.cause });
    this.database = options.database;
    this.dialect = options.dialect;
    this.engineMessage = options.engineMessage;
  }
}

interface ErrorContext {
  database: string;
  dialect: DatabaseDialect;
}

export function queryFailed(
  context: ErrorContext & { engineMessage: string; cause?: unknown },
): WarehouseError {
  return new WarehouseError({
    ...context,
    code: 'QUERY_FAILED',
    message: `The query failed on database "${context.database}" (${context.dialect}): ${context.engineMessage}`,
  });
}

export function readOnlyViolation(
  context: ErrorContext & { engineMessage: string; cause?: unknown },
): WarehouseError {
  return new WarehouseError({
    ...context,
    code: 'READ_ONLY_VIOLATION',
    message:
      `Database "${context.database}" (${context.dialect}) is read-only for nao and the engine refused the ` +
      `statement: ${context.engineMessage}. Only run queries that read this database's data.`,
  });
}

export function queryTimeout(context: ErrorContext & { timeoutMs: number; cause?: unknown }): WarehouseError {
  const engineMessage = `the query ran longer than the ${context.timeoutMs} ms limit and was cancelled`;
  return new WarehouseError({
    database: context.database,
    dialect: context.dialect,
    cause: context.cause,
    code: 'QUERY_TIMEOUT',
    engineMessage,
    message:
      `The query on database "${context.database}" (${context.dialect}) ran longer than the ` +
      `${context.timeoutMs} ms limit and was cancelled. Make it cheaper (filter, aggregate, LIMIT) or raise the limit.`,
  });
}

export function queryOutOfMemory(
  context: ErrorContext & { engineMessage: string; limit: string; cause?: unknown },
): WarehouseError {
  return new WarehouseError({
    database: context.database,
    dialect: context.dialect,
    cause: context.cause,
    code: 'QUERY_OUT_OF_MEMORY',
    engineMessage: context.engineMessage,
    message:
      `The query on database "${context.database}" (${context.dialect}) needed more memory than its ` +
      `${context.limit} limit and was stopped (${context.engineMessage}). Make it cheaper (filter, ` +
      'aggregate, fewer distinct values) or raise `agent.query_memory_limit` in nao_config.yaml.',
  });
}

export function databaseClosed(context: ErrorContext): WarehouseError {
  return new WarehouseError({
    ...context,
    code: 'DATABASE_CLOSED',
    message: `Database "${context.database}" (${context.dialect}) is closed; open it again with openDatabase().`,
  });
}

/**
 * `target` describes where nao tried to connect (host:port/database or a file path) and must
 * already be free of secrets; `engineMessage` must have been passed through `redactSecrets`.
 */
export function connectionFailed(
  context: ErrorContext & { target: string; engineMessage: string },
): WarehouseError {
  const hint =
    context.dialect === 'duckdb' || context.dialect === 'sqlite'
      ? 'Check the `path` of this database in nao_config.yaml.'
      : 'Check that the server is running and the url/host, port, user, password and database of this database in nao_config.yaml.';
  return new WarehouseError({
    database: context.database,
    dialect: context.dialect,
    engineMessage: context.engineMessage,
    code: 'CONNECTION_FAILED',
    message:
      `Could not connect to database "${context.database}" (${context.dialect} at ${context.target}): ` +
      `${context.engineMessage}. ${hint}`,
  });
}

/**
 * `message` (a driver's words, already without secrets) with the error's code (ECONNREFUSED,
 * ENOTFOUND…) added when the words do not say it: often the code alone tells why.
 */
export function withErrorCode(message: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/** The message of anything thrown, without trusting it to be an Error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
