/**
 * One test end to end on 1,000,000 rows × 5 columns (integer, double, text, date, nullable
 * integer): the agent's query and the reference query read the same DuckDB table in
 * different orders, the extraction loads the agent's result into the sandbox and a scripted
 * model answers `SELECT * FROM "query_x"`, and the comparison checks both sides.
 * Targets: whole test under 3.5 s and under 1 GB peak RSS.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MockLanguageModelV3 } from 'ai/test';
import { extractAnswer, prepareSandboxes } from '../../src/extract/index.js';
import { compareResults } from '../../src/verdict/compare/index.js';
import { openDatabase } from '../../src/warehouse/index.js';
import type { Benchmark } from './main.js';
import { formatBytes, formatMs, samplePeakMemory, timed } from './measure.js';

const ROWS = 1_000_000;
const TARGET_MS = 3500;
const TARGET_BYTES = 1024 ** 3;
const QUERY_ID = 'query_x';

/**
 * Writes the fixture in a child process: building a million-row table leaves memory with the
 * allocator that has nothing to do with the test, and would count in this process's peak.
 */
async function createWarehouse(file: string): Promise<void> {
  const script = `
    const { DuckDBInstance } = await import(${JSON.stringify(import.meta.resolve('@duckdb/node-api'))});
    const instance = await DuckDBInstance.create(${JSON.stringify(file)});
    const connection = await instance.connect();
    await connection.run(\`
      CREATE TABLE orders AS SELECT
        range::INTEGER AS order_id,
        (hash(range) % 10000000)::DOUBLE / 1000 AS amount,
        'customer_' || (hash(range * 7) % 50000) AS customer,
        DATE '2020-01-01' + (hash(range * 13) % 1500)::INTEGER AS order_date,
        CASE WHEN hash(range * 17) % 5 = 0 THEN NULL ELSE (hash(range * 19) % 1000)::INTEGER END AS discount
      FROM range(${ROWS});
      CHECKPOINT;\`);
    connection.closeSync();
    instance.closeSync();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
}

interface Stage {
  ms: number;
  /** CPU time of the whole process (every DuckDB thread included): the machine is shared, so
   * wall time alone says little when others run at the same time. */
  cpuMs: number;
}

async function stage<T>(work: () => Promise<T>): Promise<{ value: T } & Stage> {
  const cpu = process.cpuUsage();
  const { value, ms } = await timed(work);
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

function line(label: string, timing: Stage): void {
  process.stdout.write(
    `  ${label.padEnd(30)} ${formatMs(timing.ms).padStart(8)} wall  ${formatMs(timing.cpuMs).padStart(8)} cpu\n`,
  );
}

export const benchmark: Benchmark = {
  name: 'extraction',
  description: `one test end to end on ${ROWS.toLocaleString('en-US')} rows x 5 columns: warehouse, sandbox, extraction, comparison`,
  async run() {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-bench-extraction-'));
    try {
      const file = path.join(dir, 'warehouse.duckdb');
      await createWarehouse(file);
      const warehouse = await openDatabase({ type: 'duckdb', name: 'warehouse', path: file });
      // As nao test does when it opens the project, before the first run.
      await prepareSandboxes();
      (globalThis as { gc?: () => void }).gc?.();
      const before = process.memoryUsage.rss();
      const peak = samplePeakMemory();

      const agent = await stage(() => warehouse.query('SELECT * FROM orders', { maxRows: ROWS }));
      const reference = await stage(() =>
        warehouse.query('SELECT * FROM orders ORDER BY order_id DESC', { maxRows: ROWS }),
      );

      let modelCalledAt = { wall: 0, cpu: { user: 0, system: 0 } };
      let answerSql = `SELECT * FROM "${QUERY_ID}"`;
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          modelCalledAt = { wall: performance.now(), cpu: process.cpuUsage() };
          return {
            content: [{ type: 'text', text: JSON.stringify({ sql: answerSql }) }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 2000, noCache: 2000, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 20, text: 20, reasoning: 0 },
            },
            warnings: [],
          };
        },
      });
      const extract = () =>
        extractAnswer({
          model: { id: 'bench:scripted', model, prices: null },
          question: 'List every order.',
          responseMessages: [{ role: 'assistant', content: 'Here are all the orders.' }],
          queryResults: new Map([
            [
              QUERY_ID,
              { id: QUERY_ID, columns: agent.value.columns, rows: agent.value.rows, truncated: false },
            ],
          ]),
          expectedColumns: reference.value.columns.map((column) => column.name),
        });
      const extractionStart = { wall: performance.now(), cpu: process.cpuUsage() };
      const extraction = await stage(extract);
      const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) =>
        (to.user - from.user + to.system - from.system) / 1000;
      const load: Stage = {
        ms: modelCalledAt.wall - extractionStart.wall,
        cpuMs: cpuMs(extractionStart.cpu, modelCalledAt.cpu),
      };
      const answer: Stage = { ms: extraction.ms - load.ms, cpuMs: extraction.cpuMs - load.cpuMs };
      const data = extraction.value.data;
      if (data === null) throw new Error(`extraction failed: ${extraction.value.error}`);

      const comparison = await stage(async () =>
        compareResults({
          actual: { columns: data.columns, rows: data.rows },
          expected: reference.value,
        }),
      );
      const peakBytes = peak.stop();
      // Apart from the whole test: an answer that is no loaded table as it stands comes back
      // through an answer file (answer-file.ts), not the load file itself.
      answerSql = `SELECT * FROM "${QUERY_ID}" ORDER BY order_id DESC`;
      const reordered = await stage(extract);
      if (reordered.value.data?.rows.length !== ROWS)
        throw new Error(`extraction failed: ${reordered.value.error}`);
      await warehouse.close();

      const whole = agent.ms + reference.ms + extraction.ms + comparison.ms;
      const wholeCpu = agent.cpuMs + reference.cpuMs + extraction.cpuMs + comparison.cpuMs;
      line('warehouse: agent query', agent);
      line('warehouse: reference query', reference);
      line('sandbox load (+ prompt)', load);
      line('extraction query and read', answer);
      line('extraction total', extraction);
      line('comparison', comparison);
      line('extraction, reordered answer', reordered);
      process.stdout.write(
        `  whole test: ${formatMs(whole)} wall, ${formatMs(wholeCpu)} cpu (target < ${formatMs(TARGET_MS)}) ` +
          `${whole < TARGET_MS ? 'ok' : 'OVER'}; peak RSS ${formatBytes(peakBytes)} (before ${formatBytes(before)}, ` +
          `target < ${formatBytes(TARGET_BYTES)}) ${peakBytes < TARGET_BYTES ? 'ok' : 'OVER'}; ` +
          `${data.rows.length} rows extracted; verdict: ${comparison.value.passed ? 'pass' : 'fail'} "${comparison.value.message}"\n`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
