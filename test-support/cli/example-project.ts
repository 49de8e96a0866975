import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverTests } from '../../src/test-files/index.js';
import { ensureExampleWarehouse } from '../example-warehouse/index.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLE_DIR = path.join(REPO_ROOT, 'example');

export interface ExampleCopy {
  dir: string;
  /** prompt → reference SQL of every example test, to script the stand-in analyst. */
  tests: { name: string; prompt: string; sql: string; file: string }[];
  cleanup(): Promise<void>;
}

/**
 * A private copy of the bundled example whose OpenAI provider points at the wire-protocol
 * test server, so end-to-end tests run the real pipeline without any LLM.
 */
export async function copyExampleProject(options: {
  baseUrl: string;
  configExtra?: string;
}): Promise<ExampleCopy> {
  await ensureExampleWarehouse({ path: path.join(EXAMPLE_DIR, 'warehouse.duckdb') });
  const dir = await mkdtemp(path.join(tmpdir(), 'nao-e2e-'));
  await cp(EXAMPLE_DIR, dir, {
    recursive: true,
    filter: (source) => !source.includes(`${path.sep}outputs`) && !source.endsWith('.wal'),
  });
  const config = (await readFile(path.join(dir, 'nao_config.yaml'), 'utf8')).replace(
    /llm:[\s\S]*?(?=\ntest:)/,
    `llm:\n  providers:\n    - provider: openai\n      api_key: sk-test-e2e-secret\n      base_url: ${options.baseUrl}\n      models:\n        - id: gpt-4.1\n        - id: gpt-4.1-mini\n`,
  );
  await writeFile(path.join(dir, 'nao_config.yaml'), config + (options.configExtra ?? ''));
  const discovered = await discoverTests({ testsDir: path.join(dir, 'tests') });
  const tests = discovered.tests.map((test) => ({
    name: test.name,
    prompt: test.prompt,
    sql: test.sql ?? '',
    file: test.relativePath,
  }));
  return { dir, tests, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
