import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

/**
 * What `nao test validate` and `nao test` find before any model is called: every check here
 * asserts the stand-in LLM server received no request, so nothing was paid for.
 */
let server: TestLlmServer;
let project: ExampleCopy;
let answers: Record<string, ScriptedAnswer> = {};
const added: string[] = [];

beforeAll(async () => {
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});
afterEach(async () => {
  answers = {};
  server.requests.length = 0;
  await Promise.all(added.splice(0).map((file) => rm(file, { force: true })));
});

async function addTest(name: string, text: string): Promise<void> {
  const file = path.join(project.dir, 'tests', `${name}.yml`);
  added.push(file);
  await writeFile(file, text);
}

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

describe('a misspelt key in a test file', () => {
  it('stops validate and the run with exit 2, naming the file, the key and the fix', async () => {
    await addTest('typo_sql', 'prompt: How many orders are there?\nsqll: SELECT COUNT(*) FROM orders\n');
    const expected =
      'typo_sql.yml: sqll: unknown key, did you mean `sql`? Rename it: nao would ignore it and run the test without its `sql`';

    const validate = await nao(['test', 'validate']);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(expected);

    const run = await nao(['test', '--local', '-s', 'typo_sql']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(run.stderr).toContain('nothing was run');
    // The whole suite too, whatever is selected: the broken file is found before anything runs.
    const all = await nao(['test', '--local', '-s', 'total_revenue']);
    expect(all.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('stays a warning when the key is no near-miss of a known one, and the test runs', async () => {
    await addTest(
      'extension_key',
      'prompt: How many orders are there?\nsql: SELECT COUNT(*) AS n FROM orders\nowner: finance\n',
    );
    answers = { 'How many orders are there?': { sql: 'SELECT COUNT(*) AS n FROM orders' } };
    const validate = await nao(['test', 'validate']);
    expect(validate.stderr).toContain('Warning: extension_key.yml: unknown key `owner` is ignored');
    expect(validate.code).toBe(0);
    const run = await nao(['test', '--local', '-s', 'extension_key']);
    expect(run.code).toBe(0);
  });
});
