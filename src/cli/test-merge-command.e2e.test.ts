import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy, REPO_ROOT } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';
import { type ModelSummary, readResultsFile, type Summary } from '../results/index.js';
import { comparisonLines } from '../results/reporters/console-tables.js';
import { withDigest } from '../shard/suite-fingerprint.js';

let server: TestLlmServer;
let project: ExampleCopy;
const SUITE = ['-m', 'openai:gpt-4.1', '-m', 'openai:gpt-4.1-mini', '--repeat', '2', '-t', '4'];

beforeAll(async () => {
  const right: Record<string, ScriptedAnswer> = {};
  server = await startTestLlmServer({
    script: (request) => {
      const answers = { ...right };
      // One test every model gets wrong, one only the small model gets wrong.
      answers['What is the total revenue from all orders?'] = { sql: 'SELECT 1 AS total_revenue' };
      if (request.model === 'gpt-4.1-mini')
        answers['What percentage of orders were returned? Give it with two decimals.'] = {
          sql: 'SELECT 0.5 AS r',
        };
      return scriptedAnalyst({ answers })(request);
    },
  });
  project = await copyExampleProject({ baseUrl: server.url });
  for (const test of project.tests) right[test.prompt] = { sql: test.sql };
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

/** The results file a `nao test` run names in its last lines. */
function savedFile(stdout: string): string {
  const match = /Results saved to (\S+)/.exec(stdout);
  if (match === null) throw new Error(`no results file in:\n${stdout}`);
  return match[1]!;
}

function withoutDurations<T extends Summary>(
  summary: T,
): Omit<T, 'total_duration_ms' | 'total_duration_s' | 'avg_duration_ms'> {
  const { total_duration_ms, total_duration_s, avg_duration_ms, ...rest } = summary;
  return rest;
}

const junitWithoutTimes = (xml: string) => xml.replace(/ (time|timestamp)="[^"]*"/g, '');

describe('nao test --shard and nao test merge', () => {
  let shards: string[] = [];

  it('4 shards merged give the summary, by-model table and JUnit of the suite run once', async () => {
    const whole = await nao(['test', '--local', ...SUITE, '--junit', 'whole.xml']);
    expect(whole.code).toBe(1);
    const wholeFile = savedFile(whole.stdout);

    shards = [];
    const sizes: number[] = [];
    for (const index of [1, 2, 3, 4]) {
      const shard = await nao(['test', '--local', ...SUITE, '--shard', `${index}/4`]);
      expect(shard.code, shard.stderr).toBeLessThanOrEqual(1);
      sizes.push(Number(/Shard \d\/4: (\d+) of 10 tests/.exec(shard.stdout)?.[1]));
      shards.push(savedFile(shard.stdout));
    }
    expect(sizes).toEqual([3, 3, 2, 2]);

    const merged = await nao([
      'test',
      'merge',
      ...[...shards].reverse(),
      '-o',
      'merged.json',
      '--junit',
      'merged.xml',
    ]);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('Merged 4 of 4 shard(s), 40 run(s), into merged.json');
    expect(merged.stdout).toContain('Performance by Model');
    expect(merged.stdout).toMatch(/Merged:\s+4 of 4 shard\(s\)/);
    const shardSummary = await nao(['test', 'summary', shards[1]!]);
    expect(shardSummary.stdout).toMatch(/Shard:\s+2\/4 of a suite of 10 test\(s\)/);

    const once = await readResultsFile(path.join(project.dir, wholeFile));
    const combined = await readResultsFile(path.join(project.dir, 'merged.json'));
    expect(combined.summary.failed).toBeGreaterThan(0);
    expect(withoutDurations(combined.summary)).toEqual(withoutDurations(once.summary));
    expect(combined.by_model.map((model) => withoutDurations<ModelSummary>(model))).toEqual(
      once.by_model.map((model) => withoutDurations<ModelSummary>(model)),
    );
    expect(combined.comparisons).toEqual(once.comparisons);
    expect(combined.repeats).toEqual(once.repeats);
    expect(combined.results.map((r) => [r.model, r.name, r.attempt, r.status, r.message])).toEqual(
      once.results.map((r) => [r.model, r.name, r.attempt, r.status, r.message]),
    );
    const [wholeXml, mergedXml] = await Promise.all(
      ['whole.xml', 'merged.xml'].map((file) => readFile(path.join(project.dir, file), 'utf8')),
    );
    expect(junitWithoutTimes(mergedXml!)).toBe(junitWithoutTimes(wholeXml!));

    // summary and diff read it like any run.
    const summary = await nao(['test', 'summary', 'merged.json', '--json']);
    expect(JSON.parse(summary.stdout).summary.failed).toBe(once.summary.failed);
    expect(JSON.parse(summary.stdout).comparisons).toEqual(once.comparisons);
    const diff = await nao(['test', 'diff', wholeFile, 'merged.json']);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(
      /0 regressions, 0 fixes, 20 unchanged \(\d+ passing, \d+ not passing\), 0 added, 0 removed, 0 not run/,
    );
  });

  it('refuses a missing shard unless --allow-partial, an overlap and a shard of another suite (exit 2)', async () => {
    expect(shards).toHaveLength(4);
    const missing = await nao(['test', 'merge', shards[0]!, shards[1]!, shards[2]!, '-o', 'partial.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Shard \d\/4 is missing/);

    const partial = await nao(['test', 'merge', shards[0]!, shards[1]!, shards[2]!, '--allow-partial', '-q']);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/Warning: shard \d\/4 missing \(--allow-partial\)/);
    // Without -o, the merged file goes with the others, where `nao test summary` and the viewer look.
    expect(partial.stdout).toMatch(/into tests\/outputs\/results_\d{8}_\d{6}(_\d+)?\.json/);
    const latest = await nao(['test', 'summary', '--json']);
    expect(JSON.parse(latest.stdout).summary.skipped).toBeGreaterThan(0);

    const twice = await nao(['test', 'merge', shards[0]!, shards[0]!, '-o', 'twice.json']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('the shards overlap');

    const other = await nao(['test', 'merge', shards[0]!, 'merged.json']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('merged.json is already a merge of shards, not a shard');

    const once = await nao(['test', '--local', '-m', 'openai:gpt-4.1', '--shard', '2/4', '-q']);
    const mismatch = await nao(['test', 'merge', shards[0]!, savedFile(once.stdout)]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(
      /is a shard of another suite than .*: models openai:gpt-4.1, openai:gpt-4.1-mini vs openai:gpt-4.1; --repeat 2 vs 1/,
    );
  });

  it('refuses a forged shard record (digest recomputed) with exit 2 before allocating its runs', async () => {
    expect(shards).toHaveLength(4);
    const real = JSON.parse(await readFile(path.join(project.dir, shards[0]!), 'utf8'));
    const forge = async (name: string, change: (shard: typeof real.shard) => void) => {
      const file = structuredClone(real);
      change(file.shard);
      file.shard.suite = withDigest(file.shard.suite);
      await writeFile(path.join(project.dir, name), JSON.stringify(file));
      return name;
    };
    const forged: [string, string | RegExp][] = [
      [
        await forge('count.json', (shard) => (shard.count = 2e9)),
        'shard.count: 2000000000 is above the 10,000',
      ],
      [
        await forge('repeat.json', (shard) => (shard.suite.repeat = 1e8)),
        'shard.suite.repeat: 100000000 is above the 10,000',
      ],
      [
        await forge('held.json', (shard) => (shard.suite.repeat = 5000)),
        /29988 run\(s\) are missing, the first \S+ on openai:gpt-4.1, attempt 3 \(its record lists 3 test\(s\) × 2 model\(s\) × repeat 5000 = 30000 run\(s\); the file holds 12\)/,
      ],
    ];
    for (const [name, message] of forged) {
      // The built CLI with a small heap: today's merge of such a file ran out of memory.
      const run = await promisify(execFile)(
        process.execPath,
        [
          '--max-old-space-size=128',
          path.join(REPO_ROOT, 'bin', 'nao.js'),
          'test',
          'merge',
          '--allow-partial',
          name,
          '-o',
          'out.json',
        ],
        { cwd: project.dir, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeout: 60_000 },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
      );
      expect(run.stderr).toContain(`${name}`);
      expect(run.stderr).toMatch(message);
      expect(run.code).toBe(2);
    }
  });

  it('writes an empty shard when there are more shards than tests, and merges it', async () => {
    const files: string[] = [];
    for (const index of [1, 2, 3]) {
      const shard = await nao([
        'test',
        '--local',
        '-s',
        'total_revenue,orders_by_status',
        '--shard',
        `${index}/3`,
      ]);
      expect(shard.stdout).toContain(`Shard ${index}/3: ${index === 3 ? 0 : 1} of 2 tests.`);
      files.push(savedFile(shard.stdout));
    }
    const empty = await readResultsFile(path.join(project.dir, files[2]!));
    expect(empty.results).toEqual([]);
    expect(empty.shard).toMatchObject({ index: 3, count: 3 });
    const merged = await nao(['test', 'merge', ...files, '-o', 'small.json', '-q']);
    expect(merged.stdout).toContain('Merged 3 of 3 shard(s), 2 run(s), into small.json');
    const file = await readResultsFile(path.join(project.dir, 'small.json'));
    expect(file.results.map((result) => result.name)).toEqual(['total_revenue', 'orders_by_status']);
  });

  it('honours test.stats.cluster: folder of nao_config.yaml as the run does', async () => {
    const configPath = path.join(project.dir, 'nao_config.yaml');
    const config = await readFile(configPath, 'utf8');
    const models = ['-m', 'openai:gpt-4.1', '-m', 'openai:gpt-4.1-mini'];
    try {
      await writeFile(configPath, config.replace(/^test:\n/m, 'test:\n  stats:\n    cluster: folder\n'));
      const whole = savedFile((await nao(['test', '--local', ...models])).stdout);
      const files: string[] = [];
      for (const index of [1, 2, 3]) {
        files.push(savedFile((await nao(['test', '--local', ...models, '--shard', `${index}/3`])).stdout));
      }
      const merged = await nao(['test', 'merge', ...files, '-o', 'folder.json']);
      expect(merged.stderr).toBe('');
      const once = await readResultsFile(path.join(project.dir, whole));
      const combined = await readResultsFile(path.join(project.dir, 'folder.json'));
      // One attempt per test and model, yet clustered: the tests of finance/ are one cluster.
      expect(once.by_model.map((model) => model.pass_rate_ci_method)).toEqual(['clustered', 'clustered']);
      expect(withoutDurations(combined.summary)).toEqual(withoutDurations(once.summary));
      expect(combined.by_model.map((model) => withoutDurations<ModelSummary>(model))).toEqual(
        once.by_model.map((model) => withoutDurations<ModelSummary>(model)),
      );
      expect(combined.comparisons).toHaveLength(1);
      expect(combined.comparisons).toEqual(once.comparisons);
      // summary prints the file's comparison, clustered by folder, as the run's console did.
      const [line] = comparisonLines(once.comparisons!);
      expect((await nao(['test', 'summary', 'folder.json'])).stdout).toContain(line);

      // The shards record how they cluster: the config as it is at the merge does not change it.
      await writeFile(configPath, config);
      const again = await nao(['test', 'merge', ...files, '-o', 'again.json', '-q']);
      expect(again.stderr).toBe('');
      const reread = await readResultsFile(path.join(project.dir, 'again.json'));
      expect(reread.stats_cluster).toBe('folder');
      expect(reread.comparisons).toEqual(once.comparisons);
    } finally {
      await writeFile(configPath, config);
    }
  });

  it('rejects a bad --shard before running anything', async () => {
    const bad = await nao(['test', '--local', '--shard', '5/4']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard must be i/n with whole numbers 1 ≤ i ≤ n');
  });
});
