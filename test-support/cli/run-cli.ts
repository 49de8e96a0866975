import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { listResultsFiles, type ResultsFile, readResultsFile } from '../../src/results/index.js';

/** A CliIO whose output is collected, for running commands in-process in tests. */
export function capturedIO(options: {
  cwd: string;
  env?: Record<string, string | undefined>;
  columns?: number;
}): {
  io: CliIO;
  output(): { stdout: string; stderr: string };
} {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  return {
    io: {
      stdout: Object.assign(stdout, { columns: options.columns ?? 160 }),
      stderr,
      env: options.env ?? {},
      cwd: options.cwd,
    },
    output: () => ({ stdout: out, stderr: err }),
  };
}

/** `nao …` in this process, with its exit code and everything it printed. */
export async function runNao(options: {
  args: string[];
  cwd: string;
  env?: Record<string, string | undefined>;
}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, output } = capturedIO({ cwd: options.cwd, env: { PATH: process.env.PATH, ...options.env } });
  const code = await main(['node', 'nao', ...options.args], io);
  return { code, ...output() };
}

/** The newest results file a run wrote in the project. */
export async function latestResults(projectDir: string): Promise<ResultsFile> {
  const files = await listResultsFiles(path.join(projectDir, 'tests', 'outputs'));
  const latest = files.at(-1);
  if (latest === undefined) throw new Error(`no results file in ${projectDir}/tests/outputs`);
  return readResultsFile(latest);
}
