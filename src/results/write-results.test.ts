import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';
import { NaoError } from '../errors/index.js';
import { localIsoTimestamp, resultsFileName, writeResultsFile, writeResultsFileAt } from './write-results.js';

// Local time on purpose: the reference names files after the wall clock of the person running.
const NOW = new Date(2025, 1, 9, 14, 30, 22, 123);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nao-report-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('names and timestamps', () => {
  it.each<[Date, string]>([
    [NOW, '2025-02-09T14:30:22.123000'],
    [new Date(2024, 11, 31, 23, 59, 59, 5), '2024-12-31T23:59:59.005000'],
    [new Date(2025, 0, 1, 0, 0, 0, 0), '2025-01-01T00:00:00.000000'],
  ])('localIsoTimestamp(%s) = %s', (date, expected) => {
    expect(localIsoTimestamp(date)).toBe(expected);
  });

  it.each<[number, string]>([
    [1, 'results_20250209_143022.json'],
    [2, 'results_20250209_143022_2.json'],
    [13, 'results_20250209_143022_13.json'],
  ])('resultsFileName(now, %i) = %s', (sequence, expected) => {
    expect(resultsFileName(NOW, sequence)).toBe(expected);
  });
});

describe('writeResultsFile', () => {
  it('writes pretty-printed JSON named after the clock, creating the folder', async () => {
    const outputsDir = path.join(dir, 'tests', 'outputs');
    const file = resultsFile([run()]);
    const written = await writeResultsFile({ outputsDir, file, now: NOW });
    expect(written).toBe(path.join(outputsDir, 'results_20250209_143022.json'));
    const text = await readFile(written, 'utf8');
    expect(text).toBe(`${JSON.stringify(file, null, 2)}\n`);
    expect(text.split('\n')[1]).toBe('  "timestamp": "2025-02-09T14:30:22.123000",');
  });

  it('never overwrites a file of the same second: _2, _3 follow', async () => {
    const first = resultsFile([run({ name: 'first' })]);
    const second = resultsFile([run({ name: 'second' })]);
    const third = resultsFile([run({ name: 'third' })]);
    const paths = [
      await writeResultsFile({ outputsDir: dir, file: first, now: NOW }),
      await writeResultsFile({ outputsDir: dir, file: second, now: NOW }),
      await writeResultsFile({ outputsDir: dir, file: third, now: NOW }),
    ];
    expect(paths.map((p) => path.basename(p))).toEqual([
      'results_20250209_143022.json',
      'results_20250209_143022_2.json',
      'results_20250209_143022_3.json',
    ]);
    const names = await Promise.all(
      paths.map(async (p) => JSON.parse(await readFile(p, 'utf8')).results[0].name as string),
    );
    expect(names).toEqual(['first', 'second', 'third']);
  });

  it('names a file after the newest of its second, also when an earlier name is free again', async () => {
    await writeResultsFile({ outputsDir: dir, file: resultsFile([run({ name: 'shard 1' })]), now: NOW });
    await writeResultsFile({ outputsDir: dir, file: resultsFile([run({ name: 'shard 2' })]), now: NOW });
    const merged = await writeResultsFile({
      outputsDir: dir,
      file: resultsFile([run({ name: 'm' })]),
      now: NOW,
    });
    // `nao test merge --remove-shards` removes the shards: their names are free again.
    await rm(path.join(dir, 'results_20250209_143022.json'));
    await rm(path.join(dir, 'results_20250209_143022_2.json'));
    const next = await writeResultsFile({
      outputsDir: dir,
      file: resultsFile([run({ name: 'next' })]),
      now: NOW,
    });
    expect([path.basename(merged), path.basename(next)]).toEqual([
      'results_20250209_143022_3.json',
      'results_20250209_143022_4.json',
    ]);
  });

  it('gives concurrent writers of the same second distinct, complete files and leaves no temp file', async () => {
    const files = Array.from({ length: 8 }, (_, i) =>
      resultsFile([run({ name: `run${i}`, details: { response_text: 'x'.repeat(200_000) } })]),
    );
    const paths = await Promise.all(
      files.map((file) => writeResultsFile({ outputsDir: dir, file, now: NOW })),
    );
    expect(new Set(paths).size).toBe(8);
    const names = await Promise.all(
      paths.map(async (p) => JSON.parse(await readFile(p, 'utf8')).results[0].name as string),
    );
    expect(names.sort()).toEqual(files.map((file) => file.results[0]?.name).sort());
    expect((await readdir(dir)).filter((name) => !name.startsWith('results_'))).toEqual([]);
  });

  it('writes a BigInt that slipped into a tool result as its digits', async () => {
    const file = resultsFile([
      run({
        details: {
          tool_calls: [
            {
              tool_name: 'x',
              tool_call_id: '1',
              toolName: 'x',
              toolCallId: '1',
              args: {},
              result: 2n ** 70n,
            },
          ],
        },
      }),
    ]);
    const written = await writeResultsFile({ outputsDir: dir, file, now: NOW });
    const data = JSON.parse(await readFile(written, 'utf8'));
    expect(data.results[0].details.tool_calls[0].result).toBe('1180591620717411303424');
  });

  it('fails with a NaoError naming the folder when it cannot be created, and cleans up', async () => {
    const blocker = path.join(dir, 'outputs');
    await writeFile(blocker, 'not a folder');
    const attempt = writeResultsFile({ outputsDir: blocker, file: resultsFile([run()]), now: NOW });
    await expect(attempt).rejects.toThrow(NaoError);
    await expect(attempt).rejects.toMatchObject({ code: 'RESULTS_WRITE_FAILED' });
    await expect(attempt).rejects.toThrow(blocker);
    expect(await readdir(dir)).toEqual(['outputs']);
  });
});

describe('writeResultsFileAt', () => {
  it('writes to the chosen path, replacing an older file, and leaves no temporary file', async () => {
    const target = path.join(dir, 'ci', 'merged.json');
    const first = resultsFile([run({ name: 'a' })]);
    const second = resultsFile([run({ name: 'b' })]);
    expect(await writeResultsFileAt({ path: target, file: first })).toBe(target);
    await writeResultsFileAt({ path: target, file: second });
    expect(JSON.parse(await readFile(target, 'utf8')).results[0].name).toBe('b');
    expect(await readdir(path.dirname(target))).toEqual(['merged.json']);
  });

  it('names the path when it cannot write', async () => {
    await writeFile(path.join(dir, 'taken'), 'a file, not a folder');
    await expect(
      writeResultsFileAt({ path: path.join(dir, 'taken', 'merged.json'), file: resultsFile([]) }),
    ).rejects.toThrow(expect.objectContaining({ code: 'RESULTS_WRITE_FAILED' }));
  });
});
