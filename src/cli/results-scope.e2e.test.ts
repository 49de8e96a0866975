import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type ExampleCopy } from '../../test-support/cli/example-project.js';
import { runNao } from '../../test-support/cli/run-cli.js';
import { readResultsFile } from '../results/index.js';

// mock:reference answers every test with its own SQL: fast, no model, and the pipeline is real.
let project: ExampleCopy;
const MOCK = ['--local', '-m', 'mock:reference'];

beforeAll(async () => {
  project = await copyExampleProject({ baseUrl: 'http://127.0.0.1:9/v1' });
  // Its reference fails, so its run is an error (and --fail-fast stops there: it sorts first).
  await writeFile(
    path.join(project.dir, 'tests', 'a_broken.yml'),
    'name: a_broken\nprompt: How many widgets?\nsql: SELECT COUNT(*) AS n FROM no_such_table\n',
  );
});
afterAll(async () => {
  await project.cleanup();
});

function nao(args: string[]) {
  return runNao({ args, cwd: project.dir });
}

const outputsDir = () => path.join(project.dir, 'tests', 'outputs');
async function outputFiles(): Promise<string[]> {
  return (await readdir(outputsDir()).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.json'))
    .sort();
}
/** Runs `nao` and returns the name of the results file it added. */
async function run(args: string[]): Promise<string> {
  const before = new Set(await outputFiles());
  await nao(args);
  const added = (await outputFiles()).filter((name) => !before.has(name));
  expect(added).toHaveLength(1);
  return added[0]!;
}
const read = (name: string) => readResultsFile(path.join(outputsDir(), name));

describe('results files say what they are; diff and merge use it', () => {
  it('marks subsets, fail-fast stops and shards, and diff compares the latest two complete runs', async () => {
    const first = await run(['test', ...MOCK, '-t', '4']);
    const subset = await run(['test', ...MOCK, '-s', 'total_revenue']);
    const stopped = await run(['test', ...MOCK, '-x']);
    const shard1 = await run(['test', ...MOCK, '--shard', '1/2', '-t', '4']);
    const shard2 = await run(['test', ...MOCK, '--shard', '2/2', '-t', '4']);

    const firstFile = await read(first);
    expect(firstFile).not.toHaveProperty('selection');
    expect(firstFile).not.toHaveProperty('stopped_by');
    expect((await read(subset)).selection).toEqual({ select: ['total_revenue'] });
    const stoppedFile = await read(stopped);
    expect(stoppedFile.stopped_by).toBe('fail-fast');
    expect(stoppedFile.summary.skipped).toBeGreaterThan(0);
    expect((await read(shard1)).shard).toMatchObject({ index: 1, count: 2 });

    // Only one complete run of each selection so far: diff says so rather than compare a shard with one.
    const tooFew = await nao(['test', 'diff']);
    expect(tooFew.code).toBe(2);
    expect(tooFew.stderr).toContain('No two complete runs of the same selection');
    expect(tooFew.stderr).toContain(
      '2 complete run(s) of different selections, 3 shard, rerun, interrupted, stopped',
    );

    const second = await run(['test', ...MOCK, '-t', '4']);
    const diff = await nao(['test', 'diff']);
    expect(diff.code).toBe(0);
    expect(diff.stderr).toContain(
      `Comparing the latest two complete runs of every test: ${first} → ${second} (passed over: 3 partial or unreadable).`,
    );

    // Shards hidden once merged: --remove-shards leaves the merged file only.
    const merge = await nao([
      'test',
      'merge',
      `tests/outputs/${shard1}`,
      `tests/outputs/${shard2}`,
      '--remove-shards',
      '-q',
    ]);
    expect(merge.stdout).toContain('Removed the 2 shard file(s) (--remove-shards).');
    const files = await outputFiles();
    expect(files).not.toContain(shard1);
    expect(files).not.toContain(shard2);
    const merged = files.at(-1)!;
    expect((await read(merged)).merged?.shard_count).toBe(2);
    // The merged file is a complete run of every test, so diff now takes it.
    const again = await nao(['test', 'diff']);
    expect(again.stderr).toContain(
      `Comparing the latest two complete runs of every test: ${second} → ${merged}`,
    );
  });

  it('diff of -s runs compares runs of the same selection', async () => {
    await run(['test', ...MOCK, '-s', 'total_revenue']);
    const diff = await nao(['test', 'diff']);
    expect(diff.stderr).toContain('Comparing the latest two complete runs of -s total_revenue:');
  });

  it('diff says when one side was replayed and the other called the model', async () => {
    const source = JSON.parse(await readFile(path.join(outputsDir(), (await outputFiles())[0]!), 'utf8')) as {
      results: { model: string; details: Record<string, unknown> }[];
    };
    const as = (replayed: boolean) => ({
      ...source,
      results: source.results.map((result) => ({
        ...result,
        model: 'openai:gpt-4.1',
        details: { ...result.details, mock: false, replayed },
      })),
    });
    await writeFile(path.join(project.dir, 'replayed.json'), JSON.stringify(as(true)));
    await writeFile(path.join(project.dir, 'live.json'), JSON.stringify(as(false)));
    const diff = await nao(['test', 'diff', 'replayed.json', 'live.json']);
    expect(diff.stderr).toContain(
      "Note: openai:gpt-4.1: the earlier file's runs were replayed from recordings, the later file's live model calls",
    );
  });
});
