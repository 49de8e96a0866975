import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE, FILES, GPT, writeViewerFixtures } from '../../test-support/viewer/viewer-fixtures.js';
import { createResultsStore, type LoadOutcome } from './results-store.js';

let root: string;
let outputsDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-store-'));
  outputsDir = path.join(root, 'tests', 'outputs');
  await writeViewerFixtures(outputsDir);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function loaded(outcome: LoadOutcome) {
  if (!outcome.success) throw new Error(`expected a loaded file, got ${outcome.status}: ${outcome.error}`);
  return outcome.loaded;
}

describe('createResultsStore', () => {
  it('lists only results_*.json files, newest first', async () => {
    await mkdir(path.join(outputsDir, 'results_folder.json'));
    await writeFile(path.join(outputsDir, 'results_20250102_100000_2.json'), '{}');
    const store = createResultsStore({ outputsDir });
    expect((await store.list()).map((entry) => entry.name)).toEqual([
      FILES.repeat,
      'results_20250102_100000_2.json',
      FILES.multi,
      FILES.old,
      FILES.broken,
    ]);
  });

  it('sorts a renamed file by its modification time', async () => {
    const renamed = path.join(outputsDir, 'results_baseline.json');
    await writeFile(renamed, await readFile(path.join(outputsDir, FILES.old)));
    const between = new Date(2025, 0, 2, 12, 0, 0);
    await utimes(renamed, between, between);
    const names = (await createResultsStore({ outputsDir }).list()).map((entry) => entry.name);
    expect(names.slice(0, 3)).toEqual([FILES.repeat, 'results_baseline.json', FILES.multi]);
  });

  it('has no files when tests/outputs/ does not exist yet', async () => {
    const store = createResultsStore({ outputsDir: path.join(root, 'nowhere') });
    expect(await store.list()).toEqual([]);
    expect(await store.history()).toEqual({ files: [], unreadable: [] });
  });

  it('computes by_model for a file written before it existed', async () => {
    const { file } = loaded(await createResultsStore({ outputsDir }).load(FILES.old));
    expect(file.by_model.map((entry) => [entry.model, entry.passed, entry.total, entry.pass_rate])).toEqual([
      [CLAUDE, 2, 2, 100],
      [GPT, 2, 3, 66.7],
    ]);
    expect(file.results.every((result) => result.status !== undefined)).toBe(true);
  });

  it('parses a file once and again only when it changed on disk', async () => {
    const store = createResultsStore({ outputsDir });
    const first = loaded(await store.load(FILES.multi));
    expect(loaded(await store.load(FILES.multi))).toBe(first);
    expect(first.overviewJson()).toBe(first.overviewJson());

    const filePath = path.join(outputsDir, FILES.multi);
    const data = JSON.parse(await readFile(filePath, 'utf8'));
    data.results[0].message = 'match (edited)';
    await writeFile(filePath, JSON.stringify(data));
    const later = new Date(Date.now() + 5000);
    await utimes(filePath, later, later);
    const second = loaded(await store.load(FILES.multi));
    expect(second).not.toBe(first);
    expect(second.file.results[0]?.message).toBe('match (edited)');
  });

  it('shares one parse between concurrent requests', async () => {
    const store = createResultsStore({ outputsDir });
    const [a, b] = await Promise.all([store.load(FILES.repeat), store.load(FILES.repeat)]);
    expect(loaded(a)).toBe(loaded(b));
  });

  it('keeps only the most recently used files', async () => {
    const store = createResultsStore({ outputsDir, maxCachedFiles: 1 });
    const first = loaded(await store.load(FILES.old));
    loaded(await store.load(FILES.multi));
    expect(loaded(await store.load(FILES.old))).not.toBe(first);
  });

  it.each([
    ['../results_secret.json', 400, /Invalid results file name/],
    ['results_20990101_000000.json', 404, /No results file named results_20990101_000000\.json/],
    [FILES.broken, 422, /results_20241231_000000\.json is not a readable nao results file: invalid JSON/],
  ])('refuses %s with %d', async (name, status, message) => {
    const outcome = await createResultsStore({ outputsDir }).load(name);
    expect(outcome).toMatchObject({ success: false, status });
    if (!outcome.success) expect(outcome.error).toMatch(message);
  });

  it('refuses a results file that is a symlink out of tests/outputs/, naming it and not its content', async () => {
    await writeFile(path.join(root, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    const name = 'results_20250301_000000.json';
    await symlink(path.join(root, 'passwd'), path.join(outputsDir, name));
    const store = createResultsStore({ outputsDir });
    const outcome = await store.load(name);
    expect(outcome).toMatchObject({ success: false, status: 403 });
    if (!outcome.success) expect(outcome.error).toContain(`${name} is a symbolic link out of tests/outputs/`);
    expect(JSON.stringify(outcome)).not.toContain('root:x');
    expect((await store.list()).map((entry) => entry.name)).not.toContain(name);
    expect(JSON.stringify(await store.history())).not.toContain('root:x');
  });

  it('serves a results file that is a symlink to another file in tests/outputs/', async () => {
    const name = 'results_20250301_000000.json';
    await symlink(path.join(outputsDir, FILES.old), path.join(outputsDir, name));
    expect((await createResultsStore({ outputsDir }).load(name)).success).toBe(true);
  });

  it('reads a broken file again once it is fixed', async () => {
    const store = createResultsStore({ outputsDir });
    expect((await store.load(FILES.broken)).success).toBe(false);
    await writeFile(path.join(outputsDir, FILES.broken), await readFile(path.join(outputsDir, FILES.old)));
    expect((await store.load(FILES.broken)).success).toBe(true);
  });

  it('gives the history oldest first, per model, and lists unreadable files apart', async () => {
    const store = createResultsStore({ outputsDir });
    const history = await store.history();
    expect(history.files.map((point) => [point.name, point.pass_rate])).toEqual([
      [FILES.old, 80],
      [FILES.multi, 50],
      [FILES.repeat, 66.7],
    ]);
    expect(history.files[1]?.by_model).toEqual([
      {
        model: CLAUDE,
        total: 5,
        passed: 3,
        pass_rate: 60,
        total_cost: null,
        runs_without_cost: 5,
        // Wilson's interval of 3 of 5 (published: 0.231–0.882).
        pass_rate_ci95: [23.1, 88.2],
        recounted: false,
        file_says: null,
        mock: false,
        replayed: false,
      },
      {
        model: GPT,
        total: 5,
        passed: 2,
        pass_rate: 40,
        total_cost: 0.05,
        runs_without_cost: 0,
        pass_rate_ci95: [11.8, 76.9],
        recounted: false,
        file_says: null,
        mock: false,
        replayed: false,
      },
    ]);
    // Files that say nothing of their scope (older nao, the original's) are complete runs.
    expect(history.files.map((point) => point.partial)).toEqual([[], [], []]);
    expect(history.unreadable).toEqual([
      { name: FILES.broken, error: expect.stringContaining('invalid JSON') },
    ]);

    await rm(path.join(outputsDir, FILES.old));
    expect((await store.history()).files.map((point) => point.name)).toEqual([FILES.multi, FILES.repeat]);
  });
});
