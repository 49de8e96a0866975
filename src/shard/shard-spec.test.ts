import { describe, expect, it } from 'vitest';
import { assignShards, parseShardFlag, shardTests } from './shard-spec.js';

const files = (count: number) =>
  Array.from({ length: count }, (_, k) => ({
    file: `${k % 3 === 0 ? 'finance/' : ''}t${String(k).padStart(2, '0')}.yml`,
  }));
const fileOf = (test: { file: string }) => test.file;

describe('parseShardFlag', () => {
  it.each([
    ['1/4', { index: 1, count: 4 }],
    ['4/4', { index: 4, count: 4 }],
    [' 2 / 3 ', { index: 2, count: 3 }],
    ['1/1', { index: 1, count: 1 }],
    ['10000/10000', { index: 10_000, count: 10_000 }],
  ])('reads %j', (value, expected) => {
    expect(parseShardFlag(value)).toEqual(expected);
  });

  it.each(['0/4', '5/4', '2', '2/', '/4', 'a/b', '1.5/4', '-1/4', '2/0', '1/4/2', '1/10001', '1/2000000000'])(
    'refuses %j naming it',
    (value) => {
      expect(() => parseShardFlag(value)).toThrow(expect.objectContaining({ code: 'INVALID_SHARD' }));
      expect(() => parseShardFlag(value)).toThrow(`got "${value}"`);
    },
  );
});

describe('assignShards', () => {
  it('puts every test in exactly one shard, sizes differing by at most one', () => {
    for (const [tests, count] of [
      [10, 4],
      [3, 4],
      [500, 7],
      [1, 1],
    ] as const) {
      const suite = files(tests);
      const slices = Array.from({ length: count }, (_, k) =>
        shardTests({ tests: suite, shard: { index: k + 1, count }, fileOf }),
      );
      expect(slices.flat().map(fileOf).sort()).toEqual(suite.map(fileOf).sort());
      const sizes = slices.map((slice) => slice.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('depends on the files only, not on the order the tests come in', () => {
    const suite = files(23);
    const shuffled = [...suite].reverse();
    const byFile = (map: Map<{ file: string }, number>) =>
      Object.fromEntries([...map].map(([test, index]) => [test.file, index]));
    expect(byFile(assignShards({ tests: shuffled, count: 4, fileOf }))).toEqual(
      byFile(assignShards({ tests: suite, count: 4, fileOf })),
    );
  });

  it('deals the files of one folder over the shards instead of filling one', () => {
    const suite = [
      ...['a', 'b', 'c', 'd'].map((name) => ({ file: `slow/${name}.yml` })),
      ...['e', 'f', 'g', 'h'].map((name) => ({ file: `${name}.yml` })),
    ];
    const shardOf = assignShards({ tests: suite, count: 4, fileOf });
    const slowShards = suite.filter((test) => test.file.startsWith('slow/')).map((test) => shardOf.get(test));
    expect(new Set(slowShards).size).toBe(4);
  });

  it('keeps the given order within a shard', () => {
    const suite = [{ file: 'z.yml' }, { file: 'a.yml' }, { file: 'm.yml' }];
    expect(shardTests({ tests: suite, shard: { index: 1, count: 1 }, fileOf }).map(fileOf)).toEqual([
      'z.yml',
      'a.yml',
      'm.yml',
    ]);
  });
});
