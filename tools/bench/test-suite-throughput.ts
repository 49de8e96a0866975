/**
 * `nao test` throughput: 500 tests × 2 models with -t 50 against the wire-protocol test server,
 * whose every answer takes a fixed 200 ms. The ideal wall time is calls × 200 ms ÷ 50; the
 * harness's own overhead is what the ratio shows. Target: within 10% of ideal, under 500 MB.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { buildExampleWarehouse } from '../../test-support/example-warehouse/index.js';
import { startAnalystServerProcess } from './analyst-server-process.js';
import type { Benchmark } from './main.js';
import { formatBytes, formatMs, hostStealMs, mainThreadCpuMs, samplePeakMemory } from './measure.js';

const TESTS = 500;
const MODELS = ['openai:gpt-4.1', 'openai:gpt-4.1-mini'];
const THREADS = 50;
const DELAY_MS = 200;
/** Agent: a tool call, then the answer; then one extraction call. */
const CALLS_PER_RUN = 3;

export const benchmark: Benchmark = {
  name: 'test-suite-throughput',
  description: `${TESTS} tests × ${MODELS.length} models, -t ${THREADS}, every model call answered after ${DELAY_MS} ms`,
  async run() {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-bench-suite-'));
    const answers: Record<string, { sql: string; delayMs: number }> = {};
    try {
      await buildExampleWarehouse({ path: path.join(dir, 'warehouse.duckdb') });
      await mkdir(path.join(dir, 'tests'));
      for (let i = 1; i <= TESTS; i++) {
        const prompt = `How many orders have an id of at most ${i}? (bench ${i})`;
        const sql = `SELECT COUNT(*) AS orders FROM orders WHERE order_id <= ${i}`;
        answers[prompt] = { sql, delayMs: DELAY_MS };
        await writeFile(
          path.join(dir, 'tests', `t${String(i).padStart(3, '0')}.yml`),
          `name: t${i}\nprompt: "${prompt}"\nsql: ${sql}\n`,
        );
      }
      const server = await startAnalystServerProcess(answers);
      await writeFile(
        path.join(dir, 'nao_config.yaml'),
        `databases:\n  - name: shop\n    type: duckdb\n    path: warehouse.duckdb\nllm:\n  providers:\n    - provider: openai\n      api_key: bench\n      base_url: ${server.url}\n`,
      );
      const sink = new PassThrough();
      sink.resume();
      const memory = samplePeakMemory();
      const cpuBefore = process.cpuUsage();
      const mainBefore = mainThreadCpuMs();
      const stealBefore = hostStealMs();
      const started = performance.now();
      const code = await main(
        [
          'node',
          'nao',
          'test',
          '--local',
          '-q',
          '-t',
          String(THREADS),
          ...MODELS.flatMap((model) => ['-m', model]),
        ],
        { stdout: sink, stderr: process.stderr, env: {}, cwd: dir },
      );
      const wall = performance.now() - started;
      const peak = memory.stop();
      const cpu = process.cpuUsage(cpuBefore);
      const mainAfter = mainThreadCpuMs();
      const stealAfter = hostStealMs();
      const runs = TESTS * MODELS.length;
      const { calls, cpuMs: serverCpuMs } = await server.close();

      const ideal = (TESTS * MODELS.length * CALLS_PER_RUN * DELAY_MS) / THREADS;
      const ratio = wall / ideal;
      process.stdout.write(
        `  exit code ${code}, ${calls} model calls (${TESTS * MODELS.length * CALLS_PER_RUN} expected)\n` +
          `  wall time ${formatMs(wall)}, ideal ${formatMs(ideal)}, ratio ${ratio.toFixed(3)} ` +
          `(target ≤ 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'})\n` +
          `  peak RSS ${formatBytes(peak)} (target < 500 MB: ${peak < 500 * 1024 * 1024 ? 'met' : 'NOT met'})\n` +
          // On 2 cores the CPU used is what bounds the wall time; the stand-in provider's share
          // is printed apart (a real provider does its work elsewhere).
          `  CPU: nao ${formatMs((cpu.user + cpu.system) / 1000)}, stand-in provider process ${formatMs(serverCpuMs)}\n` +
          // The event loop's CPU per run is what bounds the throughput.
          (mainBefore === null || mainAfter === null
            ? ''
            : `  main thread: ${formatMs(mainAfter - mainBefore)} CPU, ${((mainAfter - mainBefore) / runs).toFixed(1)} ms per run\n`) +
          // A wall time measured while the host preempted this machine is the host's, not nao's.
          (stealBefore === null || stealAfter === null
            ? ''
            : `  CPU taken by the host (steal): ${formatMs(stealAfter - stealBefore)}` +
              `${stealAfter - stealBefore >= 100 ? ' — the machine was preempted: measure again' : ''}\n`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
