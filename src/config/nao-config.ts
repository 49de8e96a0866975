import type { ComparisonOptions, Costs, DatabaseConfig, ProviderConfig } from './schema.js';

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
  llm: {
    providers: ProviderConfig[];
    /** The deprecated `llm.meta.costs` block: the last-resort price for every model. */
    deprecatedCosts?: Costs;
  };
  test: {
    models: string[];
    threads: number;
    comparison: ComparisonOptions;
    /** `test.judge_model`: grades the answers of tests with `expected_answer`; absent: the model under test. */
    judgeModel?: string;
    /** `test.timeout_s`: the wall-clock limit of one run when `--timeout` is not given. */
    timeoutMs: number;
  };
  agent: {
    maxSteps: number;
    maxResultRows: number;
    /** `agent.query_timeout_s`: every warehouse query (the agent's and the reference's) is cancelled past it. */
    queryTimeoutMs: number;
    /** `agent.query_memory_limit`: the memory a DuckDB warehouse may use, `25%` of the machine or a size like `4GB`. */
    queryMemoryLimit: string;
  };
  /** Non-fatal remarks (unknown keys, deprecated blocks) for the CLI to print. */
  warnings: string[];
}
