/**
 * How the fake warehouse reads a statement. Spark SQL runs on DuckDB where the two agree;
 * `EXPLAIN <statement>` answers as Spark does: a one-row `plan` whose physical plan of a
 * command reads `Execute <Command>`, while a statement that does not parse fails with
 * PARSE_SYNTAX_ERROR (SQLSTATE 42601). Databricks commands DuckDB cannot parse are known by
 * their leading words; the fake explains them but never runs them.
 */
import { type DuckDBConnection, StatementType } from '@duckdb/node-api';

export class WarehouseSqlError extends Error {
  constructor(
    readonly errorClass: string,
    readonly sqlState: string,
    detail: string,
  ) {
    super(`[${errorClass}] ${detail} SQLSTATE: ${sqlState}`);
  }
}

const DATABRICKS_ONLY: [RegExp, string][] = [
  [/^COPY\s+INTO\b/i, 'CopyIntoCommand'],
  [/^MERGE\s+INTO\b/i, 'MergeIntoCommandEdge'],
  [/^OPTIMIZE\b/i, 'OptimizeTableCommandEdge'],
  [/^(?:GRANT|REVOKE)\b/i, 'GrantRevokeCommand'],
  [/^CREATE\s+(?:FOREIGN\s+CATALOG|CONNECTION|CATALOG)\b/i, 'CreateCatalogCommand'],
  [/^ALTER\s+TABLE\s+\S+\s+SET\s+TBLPROPERTIES\b/i, 'AlterTableSetPropertiesCommand'],
];

/**
 * The statement for DuckDB. Databricks' TIMESTAMP is an instant (TIMESTAMP_LTZ), DuckDB's a
 * wall clock: timestamp literals and casts become DuckDB's TIMESTAMPTZ, read in the session's UTC.
 */
export function toDuckDbSql(sql: string): string {
  return sql
    .replace(/\bTIMESTAMP(\s+')/gi, 'TIMESTAMPTZ$1')
    .replace(/\bAS\s+TIMESTAMP\s*\)/gi, 'AS TIMESTAMPTZ)');
}

/** The statement without the comments and blanks before it. */
function body(sql: string): string {
  return sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
}

export function explainTarget(sql: string): string | undefined {
  const match = /^EXPLAIN\s+([\s\S]*)$/i.exec(body(sql));
  return match?.[1];
}

export function databricksOnlyCommand(sql: string): string | undefined {
  const text = body(sql);
  return DATABRICKS_ONLY.find(([pattern]) => pattern.test(text))?.[1];
}

/** The plan text of `EXPLAIN <sql>`, parsed (and for queries bound) by DuckDB, never run. */
export async function explain(connection: DuckDBConnection, sql: string): Promise<string> {
  const command = databricksOnlyCommand(sql);
  if (command !== undefined) return `== Physical Plan ==\nExecute ${command}\n`;
  let statements: Awaited<ReturnType<DuckDBConnection['extractStatements']>>;
  try {
    statements = await connection.extractStatements(toDuckDbSql(sql));
  } catch (error) {
    throw new WarehouseSqlError('PARSE_SYNTAX_ERROR', '42601', `Syntax error: ${messageOf(error)}.`);
  }
  if (statements.count !== 1) {
    throw new WarehouseSqlError('PARSE_SYNTAX_ERROR', '42601', "Syntax error at or near ';'.");
  }
  try {
    const prepared = await statements.prepare(0);
    const type = prepared.statementType;
    if (type === StatementType.SELECT) return '== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=false\n';
    return `== Physical Plan ==\nExecute ${StatementType[type]}Command\n`;
  } catch (error) {
    // Spark answers an analysis error of an explained query with the error as its plan.
    return `== Physical Plan ==\nError occurred during query planning: \n${messageOf(error)}\n`;
  }
}

/** A DuckDB failure as the warehouse words it: Spark's error class and SQLSTATE before the details. */
export function warehouseError(error: unknown): WarehouseSqlError {
  if (error instanceof WarehouseSqlError) return error;
  const message = messageOf(error);
  if (/Parser Error/i.test(message)) return new WarehouseSqlError('PARSE_SYNTAX_ERROR', '42601', message);
  if (/Binder Error.*column/i.test(message)) {
    return new WarehouseSqlError('UNRESOLVED_COLUMN.WITH_SUGGESTION', '42703', message);
  }
  if (/Catalog Error.*(Table|View)/i.test(message)) {
    return new WarehouseSqlError('TABLE_OR_VIEW_NOT_FOUND', '42P01', message);
  }
  return new WarehouseSqlError('INTERNAL_ERROR', 'XX000', message);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
