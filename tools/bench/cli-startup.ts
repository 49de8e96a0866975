/**
 * Start-up of the installed command: `nao --help` and `nao test --help`, each run as a user
 * runs it (a fresh Node process on the built `bin/nao.js`), from spawn to exit. Target:
 * under 0.25 s. Help must not pay for what only running a command needs (DuckDB, the AI SDK,
 * the server), which lazy-commands.e2e.test.ts checks module by module.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import type { Benchmark } from './main.js';
import { formatMs } from './measure.js';

const BIN = path.join(REPO_ROOT, 'bin', 'nao.js');
const COMMANDS = [['--help'], ['test', '--help']];
const RUNS = 10;
const TARGET_MS = 250;

/** Wall time of one `nao <args>` process, spawn to exit; rejects when it does not exit 0. */
function timeOnce(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`nao ${args.join(' ')} exited with code ${code}: ${stderr.trim()}`));
    });
  });
}

export const benchmark: Benchmark = {
  name: 'cli-startup',
  description: `nao --help and nao test --help from the built binary, ${RUNS} fresh processes each`,
  async run() {
    if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does it)');
    }
    for (const args of COMMANDS) {
      await timeOnce(args); // The first one reads the files from disk; the rest find them cached.
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timeOnce(args));
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      process.stdout.write(
        `  nao ${args.join(' ')}: median ${formatMs(median)}, best ${formatMs(times[0]!)}, ` +
          `worst ${formatMs(times.at(-1)!)} (target < ${formatMs(TARGET_MS)}: ${median < TARGET_MS ? 'met' : 'NOT met'})\n`,
      );
    }
  },
};
