import type { DatabaseDialect, TableInfo } from '../warehouse/index.js';
import type { ContextListing } from './context-files.js';
import { type SchemaSummaryLimits, summarizeSchema } from './schema-summary.js';
import type { RowPolicy } from './table-access.js';

/**
 * `chat`: a conversation; `test`: a `nao test` run, which has nobody to answer a question;
 * `test-with-clarification`: a test that lets the agent ask (`allow_clarification: true`).
 */
export type AgentMode = 'chat' | 'test' | 'test-with-clarification';

/** The modes in which the agent has its `clarification` tool. */
export const CLARIFICATION_MODES: readonly AgentMode[] = ['chat', 'test-with-clarification'];

export interface DatabaseSchema {
  databaseId: string;
  dialect: DatabaseDialect;
  tables: TableInfo[];
  /** Row security of the database (`none` and `predicate` policies), named in the prompt. */
  rowPolicies?: readonly RowPolicy[];
}

/** RULES.md longer than this is cut in the prompt, with a note saying where to read on. */
export const MAX_RULES_CHARS = 50_000;
/** Context files named in the prompt at most; `list` shows the rest. */
export const MAX_PROMPT_CONTEXT_FILES = 200;

const DIALECT_NAMES: Record<DatabaseDialect, string> = {
  duckdb: 'DuckDB',
  postgres: 'PostgreSQL',
  mysql: 'MySQL/MariaDB',
  sqlite: 'SQLite',
  bigquery: 'BigQuery GoogleSQL',
  snowflake: 'Snowflake',
  mssql: 'SQL Server (T-SQL)',
  fabric: 'Microsoft Fabric warehouse (T-SQL)',
  databricks: 'Databricks SQL',
  trino: 'Trino',
  athena: 'Amazon Athena (Trino SQL)',
  clickhouse: 'ClickHouse',
  redshift: 'Amazon Redshift',
  starrocks: 'StarRocks (MySQL-compatible)',
};

const MAY_CLARIFY =
  '- If the question is ambiguous in a way that changes the answer and neither the data nor the ' +
  'context files settle it, call `clarification` with your question (and options when there are ' +
  'a few obvious choices). Otherwise answer directly.';

const MODE_INSTRUCTIONS: Record<AgentMode, string> = {
  // The same words as in chat: such a test checks how the agent behaves there.
  chat: MAY_CLARIFY,
  'test-with-clarification': MAY_CLARIFY,
  test:
    '- You cannot ask clarifying questions: nobody will answer them. When the question is ambiguous, ' +
    'state your assumptions and answer under them; if the data cannot answer the question, say that you ' +
    'cannot answer and why.',
};

/**
 * The agent's system prompt: how to work, the project's RULES.md, every database with its
 * dialect and compact schema, and the context files. It never contains anything from the
 * tests/ folder: the agent must not see reference SQL or expected rows.
 */
export function buildSystemPrompt(options: {
  mode: AgentMode;
  rules: string | null;
  databases: readonly DatabaseSchema[];
  contextFiles: ContextListing;
  previewRows: number;
  maxResultRows: number;
  schemaLimits?: SchemaSummaryLimits;
}): string {
  const sections = [
    intro(options),
    databasesSection(options),
    rulesSection(options.rules),
    contextFilesSection(options.contextFiles),
  ];
  return `${sections.join('\n\n')}\n`;
}

function intro(options: { mode: AgentMode; previewRows: number; maxResultRows: number }): string {
  return [
    'You are nao, an analytics agent. You answer questions about the data in the databases below by running SQL on them.',
    '',
    '# How to answer',
    '- Answer with the data itself: the numbers, names and rows that answer the question, not a description of how to get them.',
    '- Get every number from SQL you ran with `execute_sql`. Never invent, estimate or guess a number, and never present a value that no query returned.',
    '- Compute totals, averages, rankings and filters in SQL, so one query returns exactly the answer, rather than doing arithmetic on rows by hand.',
    `- \`execute_sql\` shows you the first ${options.previewRows} rows of a result; the whole result (up to ${options.maxResultRows} rows) is kept. If you need more than you see, refine the query rather than paging through raw rows.`,
    '- If a query fails, read the error, fix the SQL and run it again. The databases are read-only.',
    "- For relative dates (today, last month), use the database's current date functions.",
    '- Follow the project rules below: they define the metrics and conventions of this project.',
    MODE_INSTRUCTIONS[options.mode],
    '',
    '# Tools',
    '- `execute_sql`: run a read-only SQL query (`sql_query`, and `database_id` when there are several databases).',
    '- `list`, `read`, `grep`: list, read and search the context files of the project (documentation, models, SQL, YAML). Paths are relative to the project folder.',
    ...(CLARIFICATION_MODES.includes(options.mode)
      ? ['- `clarification`: ask the user a question; it ends your turn.']
      : []),
  ].join('\n');
}

function databasesSection(options: {
  databases: readonly DatabaseSchema[];
  schemaLimits?: SchemaSummaryLimits;
}): string {
  if (options.databases.length === 0) {
    return '# Databases\nNo database is configured for this project: you cannot run SQL. Say so if the question needs data.';
  }
  const parts = ['# Databases'];
  if (options.databases.length > 1) {
    parts.push(
      `There are ${options.databases.length} databases; pass the database_id to \`execute_sql\` every time.`,
    );
  }
  for (const database of options.databases) {
    parts.push(
      `## database_id: ${database.databaseId} (${DIALECT_NAMES[database.dialect]}; write SQL in this dialect)`,
      summarizeSchema({
        dialect: database.dialect,
        tables: database.tables,
        limits: options.schemaLimits,
        rowPolicies: database.rowPolicies,
      }),
    );
  }
  return parts.join('\n');
}

function rulesSection(rules: string | null): string {
  const heading = '# Project rules (RULES.md)';
  if (rules === null) return `${heading}\nThis project has no RULES.md.`;
  // Only trailing space is trimmed, so line numbers still match the file for the read hint.
  const trimmed = rules.trimEnd();
  if (trimmed.trim() === '') return `${heading}\nRULES.md is empty.`;
  // Tags keep the file's own markdown headings from reading as sections of this prompt.
  if (trimmed.length <= MAX_RULES_CHARS) return `${heading}\n<rules>\n${trimmed}\n</rules>`;
  const shown = trimmed.slice(0, MAX_RULES_CHARS);
  const nextLine = shown.split('\n').length;
  return (
    `${heading}\n<rules>\n${shown}\n</rules>\n` +
    `[RULES.md is longer than ${MAX_RULES_CHARS} characters and continues beyond this point; ` +
    `read the rest with \`read\` (path "RULES.md", start_line ${nextLine}).]`
  );
}

function contextFilesSection(listing: ContextListing): string {
  const files = listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
  if (files.length === 0 && !listing.truncated) {
    return '# Context files\nThe project folder has no other context files.';
  }
  const shown = files.slice(0, MAX_PROMPT_CONTEXT_FILES);
  const lines = [
    '# Context files',
    'Files in the project folder you can read with `read` or search with `grep`:',
    ...shown.map((file) => `- ${file}`),
  ];
  if (files.length > shown.length || listing.truncated) {
    lines.push(`(More files exist than are listed here; use \`list\` to see them.)`);
  }
  return lines.join('\n');
}
