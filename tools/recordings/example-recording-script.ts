/**
 * How the bundled example's recordings are made (`make-example-recordings.ts` runs it). No
 * model is called: a stand-in analyst, scripted for nao's wire-protocol test server, answers
 * each example test with the test's own reference SQL, except `revenue_q4_2025`, where it makes
 * a realistic mistake (it sums the payments received in Q4 by payment date, returned orders
 * included), so a replay shows both a pass and a value mismatch. The runs go through the real
 * pipeline with the recorder in record mode: the files are exactly what `nao test --record` writes.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { createRecorder } from '../../src/recording/recorder.js';
import { modelFolderName } from '../../src/recording/recording-file.js';
import type { RunResult } from '../../src/results/index.js';
import type { CellValue } from '../../src/warehouse/database.js';
import { openDatabase } from '../../src/warehouse/index.js';
import { copyExampleProject } from '../../test-support/cli/example-project.js';
import { startTestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { runRecordedSuite } from '../../test-support/recording/recorded-suite.js';

export const EXAMPLE_MODEL = 'openai:gpt-4.1';

export const EXAMPLE_NOTE =
  "Scripted for the bundled example (no real model was called): the answers were written by hand as a script for nao's wire-protocol test server.";

/** The test the scripted analyst gets wrong on purpose. */
export const MISTAKEN_TEST = 'revenue_q4_2025';
const MISTAKEN_SQL = `SELECT SUM(amount) AS revenue
FROM payments
WHERE paid_at >= TIMESTAMP '2025-10-01' AND paid_at < TIMESTAMP '2026-01-01'`;
const MISTAKEN_LEAD = 'I summed the payments received between 2025-10-01 and 2025-12-31 (by payment date).';

/** Tokens each scripted reply reports: about what gpt-4.1 reads with the example's system prompt. */
const USAGE = { input: 2600, output: 140 };

function answerText(options: { lead: string; columns: string[]; rows: CellValue[][] }): string {
  const { columns, rows } = options;
  const cell = (value: CellValue | undefined) =>
    value === null || value === undefined ? 'NULL' : String(value);
  if (rows.length === 1 && columns.length === 1)
    return `${options.lead} ${columns[0]}: ${cell(rows[0]?.[0])}.`;
  const table = [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  return `${options.lead}\n\n${table.join('\n')}`;
}

/**
 * Re-records `<recordingsDir>/openai__gpt-4.1/` for every example test, replacing what was
 * there, and returns the recorded runs' results.
 */
export async function recordExample(options: {
  recordingsDir: string;
  displayDir?: string;
}): Promise<RunResult[]> {
  const answers: Record<string, ScriptedAnswer> = {};
  const server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  try {
    const project = await copyExampleProject({ baseUrl: server.url });
    try {
      const config = await loadConfig({ projectDir: project.dir, env: {} });
      const database = await openDatabase(config.databases[0]!, { projectDir: config.projectDir });
      try {
        // The answer texts quote the rows the scripted SQL returns, as a model would.
        for (const test of project.tests) {
          const mistaken = test.name === MISTAKEN_TEST;
          const sql = mistaken ? MISTAKEN_SQL : test.sql;
          const result = await database.query(sql);
          answers[test.prompt] = {
            sql,
            usage: USAGE,
            text: answerText({
              lead: mistaken ? MISTAKEN_LEAD : 'From the query results:',
              columns: result.columns.map((column) => column.name),
              rows: result.rows,
            }),
          };
        }
      } finally {
        await database.close();
      }

      await rm(path.join(options.recordingsDir, modelFolderName(EXAMPLE_MODEL)), {
        recursive: true,
        force: true,
      });
      const recorder = createRecorder({
        recordingsDir: options.recordingsDir,
        mode: 'record',
        note: EXAMPLE_NOTE,
        ...(options.displayDir === undefined ? {} : { displayDir: options.displayDir }),
      });
      // One run at a time: the test server numbers its replies in arrival order, so the files stay the same.
      return await runRecordedSuite({
        projectDir: project.dir,
        recorder,
        models: [EXAMPLE_MODEL],
        concurrency: 1,
      });
    } finally {
      await project.cleanup();
    }
  } finally {
    await server.close();
  }
}
