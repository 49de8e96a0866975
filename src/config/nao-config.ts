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
  };
  agent: {
    maxSteps: number;
    maxResultRows: number;
  };
  /** Non-fatal remarks (unknown keys, deprecated blocks) for the CLI to print. */
  warnings: string[];
}
