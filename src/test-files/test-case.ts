import type { Assertion } from '../assertions/index.js';
import type { ComparisonOptions } from '../config/schema.js';

/** One validated test file: a question, the reference SQL that answers it, and how to judge the run. */
export interface TestCase {
  /** `name` from the file, or the file stem; unique within a suite. */
  name: string;
  prompt: string;
  /** Reference SQL whose rows the answer must hold; null when assertions or a judge decide the run. */
  sql: string | null;
  /**
   * What a correct answer says, in prose (`expected_answer:`), for tests whose answer is not a
   * table: a judge model grades the final answer against it. Never set together with `sql`.
   */
  expectedAnswer: string | null;
  /**
   * `requires_data: false`: a judged answer may come without any query (general knowledge, a
   * refusal the test expects). Absent means true: a test with `expected_answer` fails when the
   * agent ran no SQL.
   */
  requiresData?: boolean;
  /** `allow_clarification: true`: the agent keeps its `clarification` tool in this test. */
  allowClarification: boolean;
  /** The configured database the reference SQL runs on; null for the default one. */
  database: string | null;
  assertions: Assertion[];
  /** True when the row order of the answer must match the reference's. */
  ordered: boolean;
  /** Per-test tolerances that override `test.comparison` of nao_config.yaml key by key. */
  comparison: Partial<ComparisonOptions> | null;
  /** Absolute path of the YAML file. */
  filePath: string;
  /** Path relative to tests/, with forward slashes on every platform. */
  relativePath: string;
  /** Directory components between tests/ and the file (`['contracts', 'eu']`). */
  folders: string[];
}

/** The keys a test file may have; anything else is ignored with a warning, or an error when it misspells one. */
export const TEST_FILE_KEYS = [
  'name',
  'prompt',
  'sql',
  'expected_answer',
  'database',
  'assertions',
  'ordered',
  'comparison',
  'allow_clarification',
  'requires_data',
] as const;

export const COMPARISON_KEYS = ['rtol', 'atol', 'decimals'] as const;

const YAML_EXTENSION = /\.ya?ml$/i;

/** True for the file names discovery loads (`.yml` / `.yaml`, any case). */
export function isTestFileName(fileName: string): boolean {
  return YAML_EXTENSION.test(fileName);
}

/** `contracts/orders.yml` → `contracts/orders`. */
export function withoutTestExtension(relativePath: string): string {
  return relativePath.replace(YAML_EXTENSION, '');
}

/** The file name without its `.yml` / `.yaml` extension: the default test name. */
export function fileStem(relativePath: string): string {
  return withoutTestExtension(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}
