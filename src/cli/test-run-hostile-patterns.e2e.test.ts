/**
 * Hostile regular expressions in test files through the built `nao` binary and the `nao chat`
 * backend (issue #31): a pattern that backtracks catastrophically on the agent's answer is
 * checked at once (RE2, linear time), so the run ends with a verdict and a results file, and
 * the backend keeps answering; a pattern RE2 cannot run stops the suite before anything runs.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackendProcess, startBackendProcess } from '../../test-support/backend/backend-process.js';
import { spawnBuiltNao } from '../../test-support/cli/built-nao.js';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { latestResults } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import type { AppRunJob } from '../app-runs/index.js';
import type { RunResult } from '../results/index.js';

/** A backtracking engine needs about 2^40 steps to reject this with `^(a+)+$`. */
const FORTY_AS = `${'a'.repeat(40)}!`;
const DIGITS = `The growth was ${'1234567890'.repeat(4)} points.`;
const AS_PROMPT = 'Spell the scream of the quarter.';
const DIGITS_PROMPT = 'By how much did the metric grow?';
const SLOW_PROMPT = 'What takes the model a while to say?';
/** How long any of these runs may take; the hang they guard against is hours. */
const QUICK_S = 30;

let server: TestLlmServer;
let project: ExampleCopy;
const running = new Set<ChildProcess>();
const answers: Record<string, ScriptedAnswer> = {
  [AS_PROMPT]: { sql: 'SELECT 1 AS one', text: FORTY_AS },
  [DIGITS_PROMPT]: { sql: 'SELECT 1 AS one', text: DIGITS },
  [SLOW_PROMPT]: { text: 'Eventually, this.', delayMs: 20_000 },
};

beforeAll(async () => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error(
      'dist/ is missing: these tests run the built `nao` binary; run `npm run build` (npm test does).',
    );
  }
  server = await startTestLlmServer({ script: (request) => scriptedAnalyst({ answers })(request) });
  project = await copyExampleProject({ baseUrl: server.url });
  const folder = path.join(project.dir, 'tests', 'hostile');
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'scream.yml'),
    `prompt: ${AS_PROMPT}\nassertions:\n  - {type: response_matches, pattern: "^(a+)+$"}\n`,
  );
  await mkdir(path.join(project.dir, 'tests', 'slow'));
  await writeFile(
    path.join(project.dir, 'tests', 'slow', 'slow.yml'),
    `prompt: ${SLOW_PROMPT}\nassertions:\n  - {type: response_matches, pattern: "Eventually"}\n`,
  );
  await writeFile(
    path.join(folder, 'growth.yml'),
    `prompt: ${DIGITS_PROMPT}\nassertions:\n  - {type: response_not_matches, pattern: "(\\\\d+,?)+%"}\n  - {type: response_matches, pattern: "(\\\\d+,?)+%"}\n`,
  );
});
afterAll(async () => {
  // A nao that hangs (today's code on these patterns) must not outlive the suite.
  for (const child of running) child.kill('SIGKILL');
  await project?.cleanup();
  await server?.close();
});

/** `nao test …` from the built binary; killed after `QUICK_S` so a hang fails the test instead of the suite. */
function spawnNao(args: string[]) {
  const { child, ended: closed } = spawnBuiltNao({ args: ['test', ...args], cwd: project.dir });
  running.add(child);
  const started = performance.now();
  const guard = setTimeout(() => child.kill('SIGKILL'), QUICK_S * 1000);
  const ended = closed.then(({ code, stdout, stderr }) => {
    clearTimeout(guard);
    running.delete(child);
    return { code, seconds: (performance.now() - started) / 1000, stdout, stderr };
  });
  return { child, ended };
}

async function resultsByName(): Promise<Map<string, RunResult>> {
  const file = await latestResults(project.dir);
  return new Map(file.results.map((result) => [result.name, result]));
}

describe('catastrophic patterns through nao test --local', () => {
  it('checks ^(a+)+$ against forty a’s and a “!” at once: a verdict and a results file', async () => {
    const { code, seconds, stdout } = await spawnNao(['--local', '--timeout', '10', '-s', 'hostile']).ended;
    expect(code, 'nao was killed: it hung on the pattern').toBe(1);
    expect(seconds).toBeLessThan(QUICK_S);
    expect(stdout).toContain('0 passed, 2 failed, 0 errors');
    const results = await resultsByName();
    expect(results.get('scream')).toMatchObject({
      status: 'failed',
      message: `response does not match /^(a+)+$/ (response: "${FORTY_AS}")`,
      details: { response_text: FORTY_AS },
    });
    expect(results.get('growth')).toMatchObject({
      status: 'failed',
      message: `response_not_matches /(\\d+,?)+%/; response does not match /(\\d+,?)+%/ (response: "${DIGITS}")`,
    });
  }, 60_000);

  it('exits 130 on a Ctrl-C after the check, with the checked run saved', async () => {
    // The slow test is still waiting for its model when the pattern is checked beside it.
    const run = spawnNao(['--local', '-t', '2', '-s', 'hostile/scream,slow']);
    await new Promise<void>((resolve) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('scream')) resolve();
      };
      run.child.stdout!.on('data', onData);
      run.child.once('close', () => resolve());
    });
    run.child.kill('SIGINT');
    const { code, seconds } = await run.ended;
    expect(code, 'nao was killed: it hung on the pattern').toBe(130);
    expect(seconds).toBeLessThan(QUICK_S);
    const results = await resultsByName();
    expect(results.get('scream')?.status).toBe('failed');
    expect(results.get('slow')).toMatchObject({ status: 'error', message: 'interrupted' });
  }, 60_000);
});

describe('patterns RE2 cannot run', () => {
  it('are listed by nao test validate (exit 2) and stop nao test before any model call (exit 2)', async () => {
    const bad = path.join(project.dir, 'tests', 'unsupported');
    await mkdir(bad, { recursive: true });
    await writeFile(
      path.join(bad, 'repeated.yml'),
      [
        'prompt: Which word is repeated?',
        'assertions:',
        '  - {type: response_matches, pattern: "total"}',
        '  - {type: response_matches, pattern: "(\\\\w+) \\\\1"}',
        '  - {type: response_not_matches, pattern: "revenue(?! EUR)"}',
        '',
      ].join('\n'),
    );
    try {
      const validate = await spawnNao(['validate']).ended;
      // validate exits 2 on problems, as nao test does.
      expect(validate.code).toBe(2);
      expect(validate.stderr).toContain('unsupported/repeated.yml');
      expect(validate.stderr).toContain(
        'assertions[1].pattern: the pattern /(\\w+) \\1/ uses the backreference \\1: RE2 syntax has no backreferences; write the repeated text out instead',
      );
      expect(validate.stderr).toContain(
        'assertions[2].pattern: the pattern /revenue(?! EUR)/ uses negative lookahead (?!…): RE2 syntax has no lookahead or lookbehind',
      );
      expect(validate.stderr).not.toContain('assertions[0]');

      const requests = server.requests.length;
      const run = await spawnNao(['--local', '-s', 'hostile']).ended;
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('assertions[1].pattern: the pattern /(\\w+) \\1/');
      expect(server.requests.length).toBe(requests);
    } finally {
      await rm(bad, { recursive: true });
    }
  }, 60_000);
});

describe('catastrophic patterns through the nao chat backend (POST /api/tests/runs)', () => {
  let backend: BackendProcess;
  let token: string;

  beforeAll(async () => {
    backend = await startBackendProcess({ cwd: project.dir });
    const signup = await fetch(`${backend.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'regex@example.com', password: 'pw-regex-e2e-31c9' }),
    });
    token = ((await signup.json()) as { token: string }).token;
  }, 60_000);
  afterAll(async () => {
    // Today's code leaves the backend deaf to Ctrl-C: it must not outlive the suite either.
    await backend?.kill();
  });

  /** A request that must be answered within seconds: a blocked backend answers nothing. */
  const call = (method: string, url: string, body?: unknown) =>
    fetch(`${backend.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(5000),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('judges the run and keeps answering every other request meanwhile', async () => {
    const started = await call('POST', '/api/tests/runs', {
      tests: ['scream', 'growth'],
      models: ['openai:gpt-4.1'],
    });
    expect(started.status).toBe(202);
    const { job } = (await started.json()) as { job: AppRunJob };
    let finished: AppRunJob | undefined;
    for (let waited = 0; waited < QUICK_S * 1000 && finished === undefined; waited += 100) {
      const health = await call('GET', '/api/health');
      expect(health.status).toBe(200);
      const polled = (await (await call('GET', `/api/tests/runs/${job.id}`)).json()) as { job: AppRunJob };
      if (polled.job.state !== 'running') finished = polled.job;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(finished).toMatchObject({
      state: 'done',
      runs: [
        {
          name: 'scream',
          status: 'failed',
          message: expect.stringContaining('response does not match /^(a+)+$/'),
        },
        { name: 'growth', status: 'failed' },
      ],
    });
  }, 90_000);
});
