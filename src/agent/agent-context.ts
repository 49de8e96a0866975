import { realpath, stat } from 'node:fs/promises';
import { DEFAULT_AGENT } from '../config/schema.js';
import { messageOf, NaoError } from '../errors/index.js';
import type { Database, TableInfo } from '../warehouse/index.js';
import { type ContextListing, walkContextFiles } from './context-files.js';
import { resolveContextPath } from './context-paths.js';
import { readContextText } from './context-text.js';
import { type HiddenContext, rowSecurityHiddenFiles } from './row-security-files.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaSummaryLimits } from './schema-summary.js';
import { type AgentMode, buildSystemPrompt, type DatabaseSchema } from './system-prompt.js';
import { OPEN_ACCESS, type TableAccess, visibleTables } from './table-access.js';

export const DEFAULT_PREVIEW_ROWS = 20;
/** Context files walked for the system prompt; the `list` tool reaches the rest. */
const PROMPT_WALK_ENTRIES = 400;
const MAX_RULES_FILE_BYTES = 10 * 1024 * 1024;

export interface AgentContextOptions {
  projectDir: string;
  /** Already open; the context does not close them. Their `name` is the `database_id`. */
  databases: readonly Database[];
  /** Rows kept per `execute_sql` result; more mark it truncated. Default 1,000,000. */
  maxResultRows?: number;
  /** Rows of each result shown to the model. Default 20. */
  previewRows?: number;
  /** Per-query wall-clock limit handed to the database. Default: the database's own. */
  queryTimeoutMs?: number;
  schemaLimits?: Partial<SchemaSummaryLimits>;
  /** What the agent may read of each database (by name); a database without an entry is open. */
  access?: Readonly<Record<string, TableAccess>>;
  /** Configured databases that cannot be opened: the agent is told why when it asks for one. */
  unavailableDatabases?: readonly { name: string; reason: string }[];
}

export interface AgentLimits {
  maxResultRows: number;
  previewRows: number;
  queryTimeoutMs: number | undefined;
}

/** What every run of a project shares, loaded once: rules, schemas, context files, prompts. */
export interface AgentContext {
  /** Real path (symlinks resolved) of the project folder. */
  readonly projectDir: string;
  readonly databases: readonly Database[];
  /** Each database's whole catalog, before the access rules (the query check resolves names in it). */
  readonly catalogs: Readonly<Record<string, readonly TableInfo[]>>;
  readonly access: Readonly<Record<string, TableAccess>>;
  readonly unavailableDatabases: readonly { name: string; reason: string }[];
  /** Context files the tools may not open beyond the usual ones: those made from rows row security hides. */
  readonly hiddenContext: HiddenContext | undefined;
  /** The schemas shown to the agent: only what the access rules let it read. */
  readonly schemas: readonly DatabaseSchema[];
  /** RULES.md as read, or null when the project has none. */
  readonly rules: string | null;
  readonly contextFiles: ContextListing;
  readonly limits: AgentLimits;
  readonly systemPrompts: Readonly<Record<AgentMode, string>>;
}

/**
 * Loads the project's RULES.md, each database's schema (`listTables()`) and the context
 * file list, and renders the system prompts, once per project; every run reuses the result.
 * Throws a NaoError when the setup is broken (missing folder, duplicate database names,
 * a database whose schema cannot be read).
 */
export async function createAgentContext(options: AgentContextOptions): Promise<AgentContext> {
  const limits: AgentLimits = {
    maxResultRows: positiveInteger('maxResultRows', options.maxResultRows ?? DEFAULT_AGENT.max_result_rows),
    previewRows: positiveInteger('previewRows', options.previewRows ?? DEFAULT_PREVIEW_ROWS),
    queryTimeoutMs:
      options.queryTimeoutMs === undefined
        ? undefined
        : positiveInteger('queryTimeoutMs', options.queryTimeoutMs),
  };
  const schemaLimits: SchemaSummaryLimits = { ...DEFAULT_SCHEMA_LIMITS, ...options.schemaLimits };
  const projectDir = await realProjectDir(options.projectDir);
  checkDatabaseNames(options.databases);

  const access = options.access ?? {};
  const hiddenContext = rowSecurityHiddenFiles(Object.values(access).flatMap((rules) => rules.rowPolicies));
  const [catalogs, rules, contextFiles] = await Promise.all([
    Promise.all(options.databases.map(loadSchema)),
    loadRules(projectDir),
    walkContextFiles({
      projectDir,
      startDir: projectDir,
      maxEntries: PROMPT_WALK_ENTRIES,
      hidden: hiddenContext,
    }),
  ]);
  const schemas = catalogs.map((schema) => {
    const rules = access[schema.databaseId] ?? OPEN_ACCESS;
    return { ...schema, tables: visibleTables(schema.tables, rules), rowPolicies: rules.rowPolicies };
  });
  const prompt = (mode: AgentMode) =>
    buildSystemPrompt({
      mode,
      rules,
      databases: schemas,
      contextFiles,
      previewRows: limits.previewRows,
      maxResultRows: limits.maxResultRows,
      schemaLimits,
    });
  return {
    projectDir,
    databases: [...options.databases],
    catalogs: Object.fromEntries(catalogs.map((schema) => [schema.databaseId, schema.tables])),
    access,
    unavailableDatabases: [...(options.unavailableDatabases ?? [])],
    hiddenContext,
    schemas,
    rules,
    contextFiles,
    limits,
    systemPrompts: {
      chat: prompt('chat'),
      test: prompt('test'),
      'test-with-clarification': prompt('test-with-clarification'),
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new NaoError({
      code: 'AGENT_INVALID_OPTION',
      message: `Agent option ${name} must be a positive integer, got ${value}.`,
    });
  }
  return value;
}

async function realProjectDir(projectDir: string): Promise<string> {
  try {
    const real = await realpath(projectDir);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // Reported below with the path the caller gave.
  }
  throw new NaoError({
    code: 'AGENT_PROJECT_DIR_NOT_FOUND',
    message: `The project folder ${projectDir} does not exist or is not a folder; run nao from the folder holding nao_config.yaml.`,
  });
}

function checkDatabaseNames(databases: readonly Database[]): void {
  const names = databases.map((database) => database.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) {
    throw new NaoError({
      code: 'AGENT_DUPLICATE_DATABASE',
      message: `Two databases are named "${repeated}"; give each database in nao_config.yaml a unique name (it is the agent's database_id).`,
    });
  }
}

async function loadSchema(database: Database): Promise<DatabaseSchema> {
  try {
    return { databaseId: database.name, dialect: database.dialect, tables: await database.listTables() };
  } catch (error) {
    throw new NaoError({
      code: 'AGENT_SCHEMA_UNAVAILABLE',
      message: `Could not read the tables of database "${database.name}" (${database.dialect}): ${messageOf(error)}. Check its connection settings in nao_config.yaml.`,
      cause: error,
    });
  }
}

/** RULES.md through the same path rules as the tools: a symlink to a secret stays unread. */
async function loadRules(projectDir: string): Promise<string | null> {
  const resolved = await resolveContextPath({ projectDir, requested: 'RULES.md' });
  if (!resolved.success || resolved.kind !== 'file') return null;
  const text = await readContextText({
    absolute: resolved.absolute,
    displayPath: 'RULES.md',
    size: resolved.size,
    maxBytes: MAX_RULES_FILE_BYTES,
  });
  if (!text.success) {
    throw new NaoError({
      code: 'AGENT_RULES_UNREADABLE',
      message: `${projectDir}/RULES.md cannot be used: ${text.error}. Make it a UTF-8 text file.`,
    });
  }
  return text.text;
}
