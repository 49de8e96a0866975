import path from 'node:path';
import { configuredDatabaseNames, loadConfig, type NaoConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { discoverTests, formatProblems, type TestCase } from '../test-files/index.js';
import type { CliIO } from './io.js';

export interface LoadedProject {
  config: NaoConfig;
  testsDir: string;
  /** Every valid test, in discovery order. */
  tests: TestCase[];
}

/** Loads nao_config.yaml of the current folder and prints its warnings. */
export async function loadProjectConfig(io: CliIO): Promise<NaoConfig> {
  const config = await loadConfig({ projectDir: io.cwd, env: io.env });
  for (const warning of config.warnings) io.stderr.write(`Warning: ${warning}\n`);
  return config;
}

/**
 * Loads the config and every test file. Invalid files stop the command (exit 2) with every
 * problem listed: skipping them would let CI stay green on a broken suite.
 */
export async function loadProject(io: CliIO): Promise<LoadedProject> {
  return loadProjectTests(io, await loadProjectConfig(io));
}

/** The test files of a project whose config is loaded, as `loadProject` reads them. */
export async function loadProjectTests(io: CliIO, config: NaoConfig): Promise<LoadedProject> {
  const testsDir = projectTestsDir(config);
  const discovered = await discoverTests({
    testsDir,
    databaseNames: configuredDatabaseNames(config),
  });
  for (const warning of discovered.warnings) io.stderr.write(`Warning: ${warning}\n`);
  if (discovered.problems.length > 0) {
    throw new UsageError({
      code: 'INVALID_TEST_FILES',
      message: `Invalid test files in ${testsDir} — nothing was run:\n${formatProblems(discovered.problems)}\nRun \`nao test validate\` after fixing them.`,
    });
  }
  return { config, testsDir, tests: discovered.tests };
}

export function projectTestsDir(config: NaoConfig): string {
  return path.join(config.projectDir, 'tests');
}
