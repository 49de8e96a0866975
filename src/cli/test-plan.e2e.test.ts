import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';

let dir: string;
const MODEL = 'openai:gpt-4.1';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-test-plan-'));
  // 24 of 40 tests pass, once each.
  const single = Array.from({ length: 40 }, (_, i) =>
    run({ name: `t${i}`, model: MODEL, status: i < 24 ? 'passed' : 'failed' }),
  );
  await writeFile(path.join(dir, 'single.json'), JSON.stringify(resultsFile(single, { models: [MODEL] })));
  // 40 tests × 3 attempts: 36 steady (24 pass, 12 fail), 4 flaky (2 of 3).
  const repeated = Array.from({ length: 40 }, (_, i) =>
    [1, 2, 3].map((attempt) =>
      run({
        name: `t${i}`,
        model: MODEL,
        attempt,
        status: i < 24 || (i >= 36 && attempt < 3) ? 'passed' : 'failed',
      }),
    ),
  ).flat();
  await writeFile(
    path.join(dir, 'repeated.json'),
    JSON.stringify(resultsFile(repeated, { models: [MODEL], repeat: 3 })),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nao test plan', () => {
  it('with one attempt per test assumes the worst, and says how to measure flakiness', async () => {
    const { code, stdout } = await runNao({
      args: ['test', 'plan', 'single.json', '--detect', '5'],
      cwd: dir,
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`${MODEL}: 40 tests × 1 attempt, pass rate 60.0% (44.6–73.7)`);
    // SE = √(2 · 0.24 / 40) = 0.1095; Φ(0.05 / 0.1095 − 1.96) = 6.6%
    expect(stdout).toContain('chance to detect it: 7%');
    expect(stdout).toContain('for 80%: 1,507 tests at 1 attempt each, or --repeat 38 on these 40 tests');
    expect(stdout).toContain('run with --repeat 3 to measure');
  });

  it('with repeats measures the noise from the flaky tests: far fewer tests needed', async () => {
    const { code, stdout } = await runNao({
      args: ['test', 'plan', 'repeated.json', '--detect', '10'],
      cwd: dir,
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`${MODEL}: 40 tests × 3 attempts`);
    // Within variance: 4 flaky tests of 40 at (2/3 · 1/3 · 3/2) = 1/3 → 1/30 per attempt;
    // sd of a test's paired difference at 3 attempts = √(2/90) = 0.149; SE = 0.0236 → Φ(4.24 − 1.96) = 98.9%.
    expect(stdout).toContain('chance to detect it: 99%');
    expect(stdout).toContain('for 80%: 18 tests at 3 attempts each');
    expect(stdout).not.toContain('run with --repeat 3 to measure');
  });

  it('rejects a --detect that is not a number of points, with exit 2', async () => {
    const { code, stderr } = await runNao({
      args: ['test', 'plan', 'single.json', '--detect', 'lots'],
      cwd: dir,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('--detect must be a number > 0, got "lots"');
  });
});
