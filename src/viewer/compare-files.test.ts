/**
 * The compare view and `nao test diff` on the same two files: per model, the same change, the
 * same interval and the same verdict, because both take them from compareRunFiles.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNao } from '../../test-support/cli/run-cli.js';
import {
  ORIGINAL_ONE_MODEL,
  ORIGINAL_SECOND_MODEL,
  originalTwoModels,
  readOriginal,
} from '../../test-support/viewer/original-fixtures.js';
import { CLAUDE, fixtureRun, GPT } from '../../test-support/viewer/viewer-fixtures.js';
import { buildResultsFile, type RunStatus, readResultsFile } from '../results/index.js';
import { compareForViewer } from './compare-files.js';
import { verdictText } from './statistics-text.js';

const MINI = 'openai:gpt-4.1-mini';

/** 40 tests on GPT and Claude, 6 on MINI; each model passes its first `passes[model]` tests. */
function run(passes: Record<string, number>, day: number) {
  const counts: Record<string, number> = { [GPT]: 40, [CLAUDE]: 40, [MINI]: 6 };
  return buildResultsFile({
    results: Object.entries(counts).flatMap(([model, count]) =>
      Array.from({ length: count }, (_, index) => {
        const status: RunStatus = index < (passes[model] ?? 0) ? 'passed' : 'failed';
        return fixtureRun({ test: `test_${index}`, model, status });
      }),
    ),
    now: new Date(2026, 1, day, 10),
    models: [GPT, CLAUDE, MINI],
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-compare-cli-'));
  // GPT 24/40 → 38/40 (significant); Claude 24/40 → 26/40, two fixes (within noise); MINI 3/6 → 5/6.
  await writeFile(
    path.join(dir, 'before.json'),
    JSON.stringify(run({ [GPT]: 24, [CLAUDE]: 24, [MINI]: 3 }, 1)),
  );
  await writeFile(
    path.join(dir, 'after.json'),
    JSON.stringify(run({ [GPT]: 38, [CLAUDE]: 26, [MINI]: 5 }, 2)),
  );
  await writeFile(
    path.join(dir, 'original-two.json'),
    JSON.stringify(await originalTwoModels('2026-02-14T09:00:00')),
  );
  await writeFile(
    path.join(dir, 'original-one.json'),
    JSON.stringify(await readOriginal(ORIGINAL_ONE_MODEL)),
  );
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The line `nao test diff` prints under a model's before → after line. */
function cliChangeLine(stdout: string, model: string): string {
  const lines = stdout.split('\n');
  const index = lines.findIndex((line) => line.trim().startsWith(`${model} `) && line.includes('→'));
  expect(index, `${model} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
  return lines[index + 1]!.trim();
}

async function bothSides(before: string, after: string) {
  const cli = await runNao({ args: ['test', 'diff', before, after], cwd: dir });
  const viewer = compareForViewer({
    before: { name: before, file: await readResultsFile(path.join(dir, before)) },
    after: { name: after, file: await readResultsFile(path.join(dir, after)) },
  });
  return { cli, viewer };
}

describe('compare view and nao test diff on the same two files', () => {
  it('give each model the same change, interval and verdict', async () => {
    const { cli, viewer } = await bothSides('before.json', 'after.json');
    expect(cli.stderr).toBe('');
    const verdicts = viewer.models.map((entry) => [entry.model, entry.change?.verdict]);
    expect(verdicts).toEqual([
      [GPT, 'significant'],
      [CLAUDE, 'within noise'],
      [MINI, 'too few tests'],
    ]);
    for (const entry of viewer.models) {
      const change = entry.change!;
      const text = verdictText(change);
      const line = cliChangeLine(cli.stdout, entry.model);
      if (text.difference === null) {
        expect(line).toBe(
          `${change.tests} shared tests: too few to tell a real change from noise (10 needed)`,
        );
        expect(text.verdict).toBe(`fewer than 10 shared tests (${change.tests})`);
      } else {
        expect(line).toBe(`${text.difference} on ${change.tests} shared tests: ${text.verdict}`);
      }
    }
    expect(cliChangeLine(cli.stdout, GPT)).toMatch(/^\+35\.0 points .* on 40 shared tests: significant$/);
  });

  it('mark the same rates as recounted from an original nao file', async () => {
    const { cli, viewer } = await bothSides('original-two.json', 'original-one.json');
    expect(viewer.recounted).toEqual({
      before: [
        { model: GPT, file_says: { passed: 4, total: 6, pass_rate: 66.7 } },
        { model: ORIGINAL_SECOND_MODEL, file_says: { passed: 5, total: 6, pass_rate: 83.3 } },
      ],
      after: [{ model: GPT, file_says: { passed: 4, total: 6, pass_rate: 66.7 } }],
    });
    // The CLI stars exactly those rates.
    const rateLine = (model: string) =>
      cli.stdout.split('\n').find((line) => line.trim().startsWith(`${model} `) && line.includes('→'));
    expect(rateLine(GPT)).toContain('50.0%* → 50.0%*');
    expect(rateLine(ORIGINAL_SECOND_MODEL)).toContain('66.7%* → —');
  });
});
