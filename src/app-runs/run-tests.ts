import path from 'node:path';
import type { NaoConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { discoverTests, formatProblems, type TestCase } from '../test-files/index.js';

/**
 * The tests an app run names, read from tests/ as they are now (an edited test runs as
 * edited). Names are matched exactly — the apps send the names they show. An invalid test
 * file refuses the run, as it refuses `nao test`.
 */
export async function readRunTests(options: {
  config: NaoConfig;
  names: readonly string[];
}): Promise<TestCase[]> {
  const testsDir = path.join(options.config.projectDir, 'tests');
  const discovered = await discoverTests({
    testsDir,
    databaseNames: options.config.databases.map((database) => database.name),
  });
  if (discovered.problems.length > 0) {
    throw new UsageError({
      code: 'INVALID_TEST_FILES',
      message: `Invalid test files in ${testsDir} — nothing was run:\n${formatProblems(discovered.problems)}`,
    });
  }
  const byName = new Map(discovered.tests.map((test) => [test.name, test]));
  const missing = options.names.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new UsageError({
      code: 'TEST_NOT_FOUND',
      message: `No test named ${missing.join(', ')} in ${testsDir} any more (renamed or deleted since these results?).`,
    });
  }
  return [...new Set(options.names)].map((name) => byName.get(name)!);
}
