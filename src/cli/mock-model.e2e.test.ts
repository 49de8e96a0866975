import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { latestResults, runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { listResultsFiles } from '../results/index.js';

// The provider of the copied project points here: any request the mock sent would land in it.
let server: TestLlmServer;
let project: ExampleCopy;

beforeAll(async () => {
  server = await startTestLlmServer({
    script: () => {
      throw new Error('mock:reference must not call a model');
    },
  });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

function nao(args: string[], env: Record<string, string> = {}) {
  return runNao({ args, cwd: project.dir, env });
}

describe('nao test -m mock:reference', () => {
  it('passes every test with sql through the real pipeline, sends nothing, costs 0 and says it is a mock', async () => {
    const junit = path.join(project.dir, 'junit.xml');
    // No key anywhere: the provider entry's key is removed and no environment variable is set.
    const configPath = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configPath, 'utf8');
    await writeFile(configPath, config.replace(/\n\s*api_key: .*\n/, '\n'));
    try {
      const { code, stdout, stderr } = await nao([
        'test',
        '--local',
        '-m',
        'mock:reference',
        '-t',
        '4',
        '--junit',
        junit,
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      // revenue_q4_2025 fails on purpose with the scripted recordings; the mock answers it right.
      expect(stdout).toContain(`All ${project.tests.length} test(s) passed`);
      expect(stdout).toContain('answered by mock:reference');
      expect(stdout).toContain('(mock)');
    } finally {
      await writeFile(configPath, config);
    }
    expect(server.requests).toEqual([]);

    const file = await latestResults(project.dir);
    expect(file.summary).toMatchObject({ total: project.tests.length, passed: project.tests.length });
    expect(file.summary.total_cost).toBe(0);
    for (const result of file.results) {
      expect(result.model).toBe('mock:reference');
      expect(result.details.mock).toBe(true);
      // The agent's tool ran the reference for real, and the extraction read its result table.
      expect(result.details.tool_calls.map((call) => call.tool_name)).toEqual(['execute_sql']);
      expect(result.details.extraction_sql).toMatch(/^SELECT \* FROM query_[0-9a-f]{8}$/);
      // The same rows (in the order each query happened to return them).
      expect(result.details.actual_row_count).toBe(result.details.expected_row_count);
      expect(result.details.actual_data).toEqual(expect.arrayContaining(result.details.expected_data ?? []));
      expect(result.cost).toBe(0);
    }
    const newest = (await listResultsFiles(path.join(project.dir, 'tests', 'outputs'))).at(-1)!;
    const written = JSON.parse(await readFile(newest, 'utf8')) as {
      results: { details: { mock?: boolean } }[];
    };
    expect(written.results.every((result) => result.details.mock === true)).toBe(true);
    const xml = await readFile(junit, 'utf8');
    expect(xml.match(/<property name="mock" value="true"\/>/g)).toHaveLength(project.tests.length);
  });

  it('says a test without sql cannot be answered by the mock, and refuses other mock models', async () => {
    await writeFile(
      path.join(project.dir, 'tests', 'no_sql.yml'),
      'name: no_sql\nprompt: Which product sells best?\n',
    );
    const { code, stdout } = await nao(['test', '--local', '-m', 'mock:reference', '-s', 'no_sql']);
    expect(code).toBe(0);
    const file = await latestResults(project.dir);
    expect(file.results[0]).toMatchObject({ status: 'unverified', details: { mock: true } });
    expect(file.results[0]?.details.response_text).toContain('answers only tests with reference SQL');
    expect(stdout).toContain('unverified');

    const wrong = await nao(['test', '--local', '-m', 'mock:gpt-4.1', '-s', 'no_sql']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('the built-in mock provider has one model, mock:reference');
  });
});
