import { describe, expect, it } from 'vitest';
import { run } from '../../test-support/results/run-fixture.js';
import { passAtK, passHatK, repeatStats } from './pass-at-k.js';

/** C(n, k) exactly, to check the product form against the textbook formula. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let value = 1n;
  for (let i = 1; i <= k; i++) value = (value * BigInt(n - k + i)) / BigInt(i);
  return value;
}

function exactPassAtK(n: number, c: number, k: number): number {
  const scale = 10n ** 30n;
  const ratio = (binomial(n - c, k) * scale) / binomial(n, k);
  return 1 - Number(ratio) / Number(scale);
}

describe('passAtK', () => {
  it.each([
    [5, 2, 1, 0.4],
    [5, 2, 2, 0.7],
    [10, 0, 1, 0],
    [10, 0, 10, 0],
    [10, 10, 1, 1],
    [3, 3, 3, 1],
    [5, 1, 5, 1],
    [4, 1, 2, 0.5],
  ])('n=%i c=%i k=%i → %d', (n, c, k, expected) => {
    expect(passAtK({ n, c, k })).toBeCloseTo(expected, 12);
  });

  it('matches 1 − C(n−c,k)/C(n,k) for every small case', () => {
    for (let n = 1; n <= 12; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          expect(passAtK({ n, c, k })).toBeCloseTo(exactPassAtK(n, c, k), 12);
        }
      }
    }
  });

  it('stays finite and exact where the binomials overflow a double', () => {
    // C(2000, 1000) ≈ 2e600: the naive formula gives Infinity / Infinity.
    const value = passAtK({ n: 2000, c: 3, k: 1000 });
    expect(value).toBeCloseTo(exactPassAtK(2000, 3, 1000), 12);
    expect(value).toBeGreaterThan(0.87);
    expect(value).toBeLessThan(1);
  });

  it.each([
    [{ n: 5, c: 6, k: 1 }, /cannot exceed/],
    [{ n: 5, c: 2, k: 6 }, /between 1 and/],
    [{ n: 5, c: 2, k: 0 }, /between 1 and/],
    [{ n: 5, c: -1, k: 1 }, /non-negative integer/],
    [{ n: 2.5, c: 1, k: 1 }, /non-negative integer/],
    [{ n: 0, c: 0, k: 1 }, /between 1 and/],
  ])('rejects impossible counts %o', (counts, message) => {
    expect(() => passAtK(counts)).toThrow(message);
  });
});

describe('passHatK', () => {
  it.each([
    [5, 2, 1, 0.4],
    [5, 2, 2, 0.16],
    [4, 4, 4, 1],
    [4, 0, 2, 0],
    [10, 5, 3, 0.125],
  ])('n=%i c=%i k=%i → %d', (n, c, k, expected) => {
    expect(passHatK({ n, c, k })).toBeCloseTo(expected, 12);
  });
});

describe('repeatStats', () => {
  it('computes one entry per repeated (test, model) with k = attempts that ran', () => {
    const results = [
      run({ name: 't1', model: 'm:a', attempt: 1, status: 'passed' }),
      run({ name: 't1', model: 'm:a', attempt: 2, status: 'failed' }),
      run({ name: 't1', model: 'm:a', attempt: 3, status: 'passed' }),
      run({ name: 't2', model: 'm:a', attempt: 1, status: 'passed' }),
      run({ name: 't2', model: 'm:a', attempt: 2, status: 'passed' }),
      run({ name: 't2', model: 'm:a', attempt: 3, status: 'skipped' }),
      run({ name: 't1', model: 'm:b', attempt: 1, status: 'error' }),
      run({ name: 't1', model: 'm:b', attempt: 2, status: 'failed' }),
      run({ name: 't1', model: 'm:b', attempt: 3, status: 'unverified' }),
    ];
    const stats = repeatStats(results);
    expect(
      stats.map(({ name, model, runs, passes, k, flaky }) => ({ name, model, runs, passes, k, flaky })),
    ).toEqual([
      { name: 't1', model: 'm:a', runs: 3, passes: 2, k: 3, flaky: true },
      { name: 't2', model: 'm:a', runs: 2, passes: 2, k: 2, flaky: false },
      { name: 't1', model: 'm:b', runs: 3, passes: 0, k: 3, flaky: false },
    ]);
    expect(stats[0]?.pass_at_k).toBe(1);
    expect(stats[0]?.pass_hat_k).toBeCloseTo(8 / 27, 12);
    expect(stats[1]).toMatchObject({ pass_at_k: 1, pass_hat_k: 1 });
    expect(stats[2]).toMatchObject({ pass_at_k: 0, pass_hat_k: 0 });
  });

  it('is empty without repeats and skips pairs whose attempts were all skipped', () => {
    expect(repeatStats([run({ name: 'a' }), run({ name: 'b' })])).toEqual([]);
    expect(
      repeatStats([
        run({ name: 'a', attempt: 1, status: 'skipped' }),
        run({ name: 'a', attempt: 2, status: 'skipped' }),
      ]),
    ).toEqual([]);
  });
});
