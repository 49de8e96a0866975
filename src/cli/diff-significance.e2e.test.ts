import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';

// A 40-test suite of one model; `passes` tests pass: the first ones, so 24 → 26 is two fixes.
let dir: string;
const MODEL = 'openai:gpt-4.1';

async function suiteFile(name: string, passes: number): Promise<string> {
  const results = Array.from({ length: 40 }, (_, i) =>
    run({ name: `t${String(i).padStart(2, '0')}`, model: MODEL, status: i < passes ? 'passed' : 'failed' }),
  );
  await writeFile(path.join(dir, name), JSON.stringify(resultsFile(results, { models: [MODEL] })));
  return name;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-diff-significance-'));
  await suiteFile('p24.json', 24);
  await suiteFile('p26.json', 26);
  await suiteFile('p38.json', 38);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const diff = (args: string[]) => runNao({ args: ['test', 'diff', ...args], cwd: dir });

describe('nao test diff says whether a change is real', () => {
  it('24/40 → 26/40 (two fixes) is within noise', async () => {
    const { code, stdout } = await diff(['p24.json', 'p26.json']);
    expect(code).toBe(0);
    expect(stdout).toContain('60.0% → 65.0% (+5.0)');
    expect(stdout).toMatch(/\+5\.0 points \(95% CI −1\.\d to \+11\.\d\) on 40 shared tests: within noise/);
    expect(stdout).toContain('Fixes (2)');
  });

  it('24/40 → 38/40 is significant', async () => {
    const { code, stdout } = await diff(['p24.json', 'p38.json']);
    expect(code).toBe(0);
    expect(stdout).toContain('+35.0 points (95% CI +20.0 to +50.0) on 40 shared tests: significant');
  });

  it('38/40 → 24/40 exits 1, by default and with --fail-on significant', async () => {
    const plain = await diff(['p38.json', 'p24.json']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('−35.0 points (95% CI −50.0 to −20.0) on 40 shared tests: significant');
    expect((await diff(['p38.json', 'p24.json', '--fail-on', 'significant'])).code).toBe(1);
  });

  it('26/40 → 24/40 exits 1 by default (two regressions) but 0 with --fail-on significant', async () => {
    const plain = await diff(['p26.json', 'p24.json']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('Regressions (2)');
    expect(plain.stdout).toContain('within noise');
    expect((await diff(['p26.json', 'p24.json', '--fail-on', 'significant'])).code).toBe(0);
  });

  it('says there are too few shared tests rather than give a verdict', async () => {
    const { stdout } = await diff(['p24.json', 'p38.json', '--test', 't30']);
    expect(stdout).toContain('1 shared test: too few to tell a real change from noise (10 needed)');
    expect(stdout).not.toMatch(/significant|within noise/);
  });

  it('rejects an unknown --fail-on with exit 2, naming the choices', async () => {
    const { code, stderr } = await diff(['p24.json', 'p26.json', '--fail-on', 'sometimes']);
    expect(code).toBe(2);
    expect(stderr).toContain('--fail-on must be regression or significant, got "sometimes"');
  });
});

describe('pass-rate intervals on read', () => {
  it("summary --json gives an original nao file's rates their 95% interval", async () => {
    const original = path.resolve(import.meta.dirname, '../../test-support/original-nao/results');
    await cp(path.join(original, 'results_20260212_100411.json'), path.join(dir, 'original.json'));
    const { code, stdout } = await runNao({ args: ['test', 'summary', '--json', 'original.json'], cwd: dir });
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as {
      summary: { pass_rate_ci95: [number, number]; pass_rate_ci_method: string };
      by_model: { pass_rate: number; pass_rate_ci95: [number, number] }[];
    };
    // nao counts 3 of 6 as passed (see original-results.e2e.test.ts): Wilson's 3/6 is 18.8–81.2.
    expect(parsed.summary.pass_rate_ci95).toEqual([18.8, 81.2]);
    expect(parsed.summary.pass_rate_ci_method).toBe('wilson');
    for (const model of parsed.by_model) {
      expect(model.pass_rate_ci95[0]).toBeLessThanOrEqual(model.pass_rate);
      expect(model.pass_rate_ci95[1]).toBeGreaterThanOrEqual(model.pass_rate);
    }
  });
});
