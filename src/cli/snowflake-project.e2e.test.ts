/**
 * A public nao project whose warehouse is Snowflake (xavlob78/Nao, see
 * test-support/nao-projects/), run through the real CLI: it loads and lists its tests, and a
 * run against an account that cannot be reached ends as an `error` run naming the host, quickly,
 * in a results file like any other.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

const PUBLIC_PROJECT = path.resolve(
  import.meta.dirname,
  '../../test-support/nao-projects/xavlob78--Nao--382511b',
);
const PROMPT = 'How many orders were placed in 2025?';
const REFERENCE_SQL = 'SELECT COUNT(*) AS orders FROM orders WHERE YEAR(ordered_at) = 2025';

/** The values its `{{ env() }}` placeholders read. */
const ENV = {
  SNOWFLAKE_USERNAME: 'NAO_READER',
  SNOWFLAKE_ACCOUNT_ID: 'xy12345',
  SNOWFLAKE_PASSWORD: 'hunter2-secret',
  SNOWFLAKE_DATABASE: 'SALES',
  SNOWFLAKE_SCHEMA: 'PUBLIC',
  SNOWFLAKE_WAREHOUSE: 'WH',
};

/** A port on 127.0.0.1 where nothing listens: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let dir: string;
let llm: TestLlmServer;
let port: number;

beforeAll(async () => {
  llm = await startTestLlmServer({
    script: scriptedAnalyst({ answers: { [PROMPT]: { sql: REFERENCE_SQL } } }),
  });
  port = await closedPort();
  dir = await mkdtemp(path.join(tmpdir(), 'nao-snowflake-'));
  await cp(PUBLIC_PROJECT, dir, { recursive: true });
  const config = await readFile(path.join(dir, 'nao_config.yaml'), 'utf8');
  // Where the account would be: a closed port instead of xy12345.snowflakecomputing.com.
  const pointed = config.replace(
    /^( +)account_id: .*$/m,
    (line, indent: string) =>
      `${line}\n${indent}host: 127.0.0.1\n${indent}port: ${port}\n${indent}protocol: http`,
  );
  expect(pointed).not.toBe(config);
  await writeFile(
    path.join(dir, 'nao_config.yaml'),
    `${pointed}\nllm:\n  providers:\n    - provider: openai\n      api_key: sk-test-e2e-secret\n      base_url: ${llm.url}\n      models:\n        - id: gpt-4.1\n`,
  );
  await mkdir(path.join(dir, 'tests'), { recursive: true });
  await writeFile(
    path.join(dir, 'tests', 'orders_2025.yml'),
    `name: orders_2025\nprompt: ${PROMPT}\ndatabase: snowflake-prod\nsql: ${REFERENCE_SQL}\n`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await llm.close();
});

describe('a public nao project on Snowflake, through the CLI', () => {
  it('loads and lists its tests', async () => {
    const { code, stdout, stderr } = await runNao({ args: ['test', 'list'], cwd: dir, env: ENV });
    expect(stderr).not.toMatch(/^Error/m);
    expect(code).toBe(0);
    expect(stdout).toContain('1 test(s)');
    expect(stdout).toContain('orders_2025');
  });

  it('ends a run against an account it cannot reach as an error naming the host, within seconds', async () => {
    const started = performance.now();
    const { code, stdout, stderr } = await runNao({ args: ['test', '--local'], cwd: dir, env: ENV });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(code).toBe(1);
    const target = `Could not connect to database "snowflake-prod" (snowflake at 127.0.0.1:${port}/SALES as user NAO_READER)`;
    expect(stderr).toContain(`Warning: ${target}`);
    const outputs = path.join(dir, 'tests', 'outputs');
    const [file] = (await readdir(outputs)).filter((name) => name.endsWith('.json'));
    const results = JSON.parse(await readFile(path.join(outputs, file!), 'utf8'));
    expect(results.results).toHaveLength(1);
    expect(results.results[0].status).toBe('error');
    expect(results.results[0].message).toContain(target);
    expect(results.results[0].message).toContain('ECONNREFUSED');
    expect(`${stdout}${stderr}${JSON.stringify(results)}`).not.toContain('hunter2');
  });

  it("prints none of the driver's own notices in the terminal, such as the AWS SDK's about Node 22", async () => {
    // The installed binary, in a process of its own: a notice goes to the real stderr. Without
    // the variable nao sets (an in-process run above may have set it in this process).
    const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _, ...inherited } = process.env;
    const bin = path.resolve(import.meta.dirname, '../../bin/nao.js');
    const failed = await promisify(execFile)(process.execPath, [bin, 'test', '--local'], {
      cwd: dir,
      env: { ...inherited, ...ENV },
      timeout: 30_000,
    }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('Warning: Could not connect to database "snowflake-prod"');
    expect(failed?.stderr).not.toMatch(/NodeVersionSupportWarning|AWS SDK/);
  });
});
