import path from 'node:path';
import { writeFileAtomic } from '../files/index.js';

/** The files `nao init` writes, relative to the project folder. */
export const SCAFFOLD_FILES: Readonly<Record<string, string>> = {
  'nao_config.yaml': `# nao project configuration — every key is optional. See docs/configuration.md for the full reference.
project_name: my-project

databases:
  # The embedded default, DuckDB. Without \`path\` it is an empty in-memory database, so the
  # sample test runs as is; set \`path\` to your DuckDB file (opened read-only, relative to
  # this folder), or use another type below.
  - name: warehouse
    type: duckdb
    # path: warehouse.duckdb
  # - name: analytics
  #   type: postgres
  #   host: 127.0.0.1
  #   port: 5432
  #   user: analyst
  #   password: {{ env('PGPASSWORD') }}
  #   database: analytics

llm:
  providers:
    # The key is read from OPENAI_API_KEY unless you set api_key: {{ env('SOME_VARIABLE') }}.
    - provider: openai

test:
  models:
    - openai:gpt-4.1
  threads: 1
  comparison:
    rtol: 0.00001
    atol: 0.00000001
    decimals: 2
`,
  'RULES.md': `# Business rules

Describe your business for the agent: what the tables hold, how metrics are defined
(revenue, active customer, churn…), which statuses or rows to exclude, time zones and
fiscal calendars. The agent reads this file before every question.
`,
  'tests/row_count.yml': `# A unit test: a question for the agent and the SQL that produces the right data.
name: row_count
prompt: How many tables are there in the warehouse?
sql: |
  SELECT COUNT(*) AS table_count
  FROM information_schema.tables
  WHERE table_schema NOT IN ('information_schema', 'pg_catalog')
`,
  '.gitignore': `# nao's local state (accounts, sessions) and test results
.nao/
tests/outputs/
`,
};

export interface ScaffoldReport {
  folder: string;
  created: string[];
  /** Files that already existed and were left untouched. */
  kept: string[];
}

/** Writes the scaffold into `folder`, never overwriting a file that exists. */
export async function scaffoldProject(options: { folder: string }): Promise<ScaffoldReport> {
  const folder = path.resolve(options.folder);
  const report: ScaffoldReport = { folder, created: [], kept: [] };
  for (const [relative, content] of Object.entries(SCAFFOLD_FILES)) {
    const target = path.join(folder, relative);
    try {
      // Fails when the file exists, which closes the gap a check-then-write would leave.
      await writeFileAtomic({ path: target, data: content, ifExists: 'fail' });
      report.created.push(relative);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      report.kept.push(relative);
    }
  }
  return report;
}
