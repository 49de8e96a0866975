import { type FlexibleSchema, type Tool, tool, zodSchema } from 'ai';
import { z } from 'zod';
import { messageOf, NaoError } from '../errors/index.js';
import {
  type CellValue,
  type ColumnInfo,
  type Database,
  type TableInfo,
  WarehouseError,
} from '../warehouse/index.js';
import { checkQueryAccess } from './query-access.js';
import { QUERY_ID_PATTERN, type QueryResults } from './query-results.js';
import type { TableAccess } from './table-access.js';
import { type ToolError, toModelOutput, toolError } from './tool-error.js';

export const EXECUTE_SQL_TOOL_NAME = 'execute_sql';

/** Longest text cell shown to the model; the stored result keeps the whole value. */
const PREVIEW_CELL_CHARS = 500;
/** Rough ceiling on the JSON size of the preview rows, so wide rows cannot flood the context. */
const PREVIEW_JSON_CHARS = 30_000;

export interface ExecuteSqlInput {
  sql_query: string;
  database_id?: string | undefined;
}

/** What the model sees of a successful query. */
export interface ExecuteSqlOutput {
  id: string;
  database_id: string;
  columns: ColumnInfo[];
  /** Rows kept for the answer (all of them unless `truncated`). */
  row_count: number;
  /** The first rows only. */
  rows: CellValue[][];
  /** True when `row_count` is larger than the rows shown. */
  has_more: boolean;
  /** Present when the result exceeded `maxResultRows` and only its first rows were kept. */
  truncated?: true;
  note?: string;
}

export interface ExecuteSqlToolOptions {
  databases: readonly Database[];
  /** Configured databases that cannot be opened, with the reason the agent is given. */
  unavailableDatabases?: readonly { name: string; reason: string }[];
  /** Each database's whole catalog, by name, for checking queries against `access`. */
  catalogs?: Readonly<Record<string, readonly TableInfo[]>>;
  /** The access rules by database name; a query on a restricted database is checked first. */
  access?: Readonly<Record<string, TableAccess>>;
  /** Where every successful result is kept whole; shared with the run. */
  queryResults: QueryResults;
  previewRows: number;
  maxResultRows: number;
  queryTimeoutMs?: number | undefined;
  generateQueryId: () => string;
  /**
   * Called with an error that must end the run (a broken id generator), since anything the
   * tool throws would otherwise be handed to the model as an ordinary tool error.
   */
  onFatal: (error: NaoError) => void;
}

/**
 * The input schema per description of the database argument (it names the project's databases),
 * converted to JSON Schema once rather than by the SDK on every model call.
 */
const inputSchemas = new Map<string, FlexibleSchema<ExecuteSqlInput>>();

function inputSchemaFor(databaseIdDescription: string): FlexibleSchema<ExecuteSqlInput> {
  let schema = inputSchemas.get(databaseIdDescription);
  if (schema === undefined) {
    schema = zodSchema(
      z.object({
        sql_query: z.string().describe('The SQL query to run (one statement, read-only).'),
        database_id: z.string().optional().describe(databaseIdDescription),
      }),
    );
    inputSchemas.set(databaseIdDescription, schema);
  }
  return schema;
}

/** The `execute_sql` tool: runs read-only SQL and keeps every successful result whole. */
export function createExecuteSqlTool(
  options: ExecuteSqlToolOptions,
): Tool<ExecuteSqlInput, ExecuteSqlOutput | ToolError> {
  const { databases, queryResults, previewRows, maxResultRows } = options;
  const names = databases.map((database) => database.name);
  const databaseIdDescription =
    databases.length > 1
      ? `Required: the database to query, one of ${names.map((name) => `"${name}"`).join(', ')}.`
      : `Optional: the database to query; the only one is "${names[0] ?? '(none configured)'}".`;

  return tool({
    description:
      `Run one read-only SQL query on a configured database, written in that database's dialect. ` +
      `You see the columns, the row count and the first ${previewRows} rows; the full result ` +
      `(up to ${maxResultRows} rows) is kept under the returned id. Compute totals, rankings and ` +
      `filters in SQL rather than by hand from the rows you see. If the query fails you get the ` +
      `error message: fix the SQL and call the tool again.`,
    inputSchema: inputSchemaFor(databaseIdDescription),
    toModelOutput,
    async execute(input, { abortSignal }): Promise<ExecuteSqlOutput | ToolError> {
      const sql = input.sql_query.trim();
      if (sql === '') return toolError('sql_query is empty; give the SQL query to run.');
      const unavailable = options.unavailableDatabases?.find(
        (entry) => entry.name === input.database_id?.trim(),
      );
      if (unavailable !== undefined) return toolError(unavailable.reason);
      const database = pickDatabase(databases, input.database_id);
      if ('error' in database) return database;
      const access = options.access?.[database.name];
      // What runs: the query as written, or with row security's filters added.
      let runnable = sql;
      if (access?.restricted === true) {
        const checked = await checkQueryAccess({
          sql,
          databaseName: database.name,
          tables: options.catalogs?.[database.name] ?? [],
          access,
        });
        if (!checked.allowed) return toolError(checked.reason);
        runnable = checked.sql;
      }

      let result: Awaited<ReturnType<Database['query']>>;
      try {
        const query = database.query(runnable, {
          maxRows: maxResultRows,
          timeoutMs: options.queryTimeoutMs,
          signal: abortSignal,
        });
        result = await untilAborted(query, abortSignal);
      } catch (error) {
        if (abortSignal?.aborted) throw abortSignal.reason;
        // warehouse/ errors already name the database and say what to change.
        if (error instanceof WarehouseError) return toolError(error.message);
        return toolError(
          `The query failed on database "${database.name}" (${database.dialect}): ${messageOf(error)}`,
        );
      }

      const id = nextQueryId(options);
      queryResults.set(id, {
        id,
        sql,
        databaseId: database.name,
        columns: result.columns,
        rows: result.rows,
        truncated: result.truncated,
      });
      return preview({ id, databaseId: database.name, result, previewRows, maxResultRows });
    },
  });
}

function pickDatabase(databases: readonly Database[], requested: string | undefined): Database | ToolError {
  const list = databases.map((database) => `"${database.name}"`).join(', ');
  if (databases.length === 0) return toolError('No database is configured for this project.');
  const id = requested?.trim();
  if (id === undefined || id === '') {
    if (databases.length === 1) return databases[0]!;
    return toolError(`Several databases are configured; set database_id to one of ${list}.`);
  }
  const found = databases.find((database) => database.name === id);
  return found ?? toolError(`Unknown database_id "${id}"; use one of ${list}.`);
}

function nextQueryId(options: ExecuteSqlToolOptions): string {
  // A few draws absorb the (tiny) chance of a random collision; a generator that keeps
  // repeating itself is broken and must stop the run rather than overwrite a result.
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = options.generateQueryId();
    if (!QUERY_ID_PATTERN.test(id)) {
      const error = new NaoError({
        code: 'AGENT_INVALID_QUERY_ID',
        message: `The query id generator returned "${id}"; ids must look like query_0123abcd (query_ + 8 lowercase hex characters).`,
      });
      options.onFatal(error);
      throw error;
    }
    if (!options.queryResults.has(id)) return id;
  }
  const error = new NaoError({
    code: 'AGENT_DUPLICATE_QUERY_ID',
    message:
      'The query id generator returned only ids already used in this run; it must return a new id on each call.',
  });
  options.onFatal(error);
  throw error;
}

function preview(options: {
  id: string;
  databaseId: string;
  result: Awaited<ReturnType<Database['query']>>;
  previewRows: number;
  maxResultRows: number;
}): ExecuteSqlOutput {
  const { id, result, maxResultRows } = options;
  const rowCount = result.rows.length;
  let shown = result.rows.slice(0, options.previewRows).map((row) => row.map(shortenCell));
  let shrunk = false;
  while (shown.length > 1 && JSON.stringify(shown).length > PREVIEW_JSON_CHARS) {
    shown = shown.slice(0, Math.ceil(shown.length / 2));
    shrunk = true;
  }
  const notes: string[] = [];
  if (result.truncated) {
    notes.push(
      `The result has more than ${maxResultRows} rows; only the first ${maxResultRows} were kept. ` +
        'Aggregate or filter in SQL to get a complete answer.',
    );
  }
  if (rowCount > shown.length) {
    notes.push(
      `Showing the first ${shown.length} of ${rowCount} rows` +
        (shrunk ? ' (fewer than usual because the rows are wide)' : '') +
        `; the whole result is kept as ${id}.`,
    );
  }
  if (shown.some((row, r) => row.some((cell, c) => cell !== result.rows[r]?.[c]))) {
    notes.push(`Long text values are cut to ${PREVIEW_CELL_CHARS} characters in this preview.`);
  }
  return {
    id,
    database_id: options.databaseId,
    columns: result.columns,
    row_count: rowCount,
    rows: shown,
    has_more: rowCount > shown.length,
    ...(result.truncated ? { truncated: true as const } : {}),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

function shortenCell(value: CellValue): CellValue {
  if (typeof value !== 'string' || value.length <= PREVIEW_CELL_CHARS) return value;
  return `${value.slice(0, PREVIEW_CELL_CHARS)}… [${value.length - PREVIEW_CELL_CHARS} more characters]`;
}

/**
 * Settles with the query, or rejects with the abort reason as soon as the run is aborted,
 * even if the engine missed the cancellation (an abort landing just before the query
 * started): a cancelled run must not wait for a query nobody will read.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
