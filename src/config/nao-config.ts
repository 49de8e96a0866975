import type { ComparisonOptions, Costs, DatabaseConfig, ProviderConfig } from './schema.js';

/**
 * A database entry nao keeps but cannot open: a type only the original nao runs, connection
 * values whose placeholders had no value, or (at run time) a server that does not answer. Runs that need it fail with `reason`;
 * everything else in the project runs.
 */
export interface UnavailableDatabase {
  name: string;
  /** As written (`snowflake`, or a type nao runs when the values are what is missing). */
  type: string;
  reason: string;
}

/**
 * A loaded, validated project configuration. Paths of file databases are absolute.
 * It is read once by the CLI and passed down as a value; nothing below `cli/` reads the file.
 */
export interface NaoConfig {
  /** Absolute path of the project folder (the one holding nao_config.yaml). */
  projectDir: string;
  /** Absolute path of nao_config.yaml. */
  configPath: string;
  projectName: string;
  databases: DatabaseConfig[];
  /** Entries of `databases` that cannot be opened; their names are still valid in tests. */
  unavailableDatabases: UnavailableDatabase[];
  llm: {
    providers: ProviderConfig[];
    /** The deprecated `llm.meta.costs` block: the last-resort price for every model. */
    deprecatedCosts?: Costs;
  };
  test: {
    models: string[];
    threads: number;
    /** `test.fail_fast`: stop starting runs after the first failure or error. */
    failFast: boolean;
    comparison: ComparisonOptions;
    /** `test.judge_model`: grades the answers of tests with `expected_answer`; absent: the model under test. */
    judgeModel?: string;
    /** `test.timeout_s`: the wall-clock limit of one run when `--timeout` is not given. */
    timeoutMs: number;
    /** `test.stats.cluster`: related runs for the pass-rate intervals, the test's (default) or its folder's. */
    statsCluster?: 'test' | 'folder';
  };
  agent: {
    maxSteps: number;
    maxResultRows: number;
    /** `agent.query_timeout_s`: every warehouse query (the agent's and the reference's) is cancelled past it. */
    queryTimeoutMs: number;
    /** `agent.query_memory_limit`: the memory a DuckDB warehouse may use, `25%` of the machine or a size like `4GB`. */
    queryMemoryLimit: string;
  };
  /** Non-fatal remarks (unknown keys, deprecated blocks, types nao cannot run) for the CLI to print. */
  warnings: string[];
}

/** Every configured database name, those that cannot be opened included (tests may name them). */
export function configuredDatabaseNames(
  config: Pick<NaoConfig, 'databases' | 'unavailableDatabases'>,
): string[] {
  return [...config.databases, ...config.unavailableDatabases].map((database) => database.name);
}
