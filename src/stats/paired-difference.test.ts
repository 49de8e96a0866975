import { describe, expect, it } from 'vitest';
import { type PairedScore, pairedDifference } from './paired-difference.js';

/** `same` tests with equal outcomes (half passing), `onlyA` passing only on A, `onlyB` only on B. */
function pairs(options: { same: number; onlyA: number; onlyB: number }): PairedScore[] {
  const list: PairedScore[] = [];
  for (let i = 0; i < options.same; i++) list.push({ a: i % 2, b: i % 2, cluster: `s${i}`, single: true });
  for (let i = 0; i < options.onlyA; i++) list.push({ a: 1, b: 0, cluster: `a${i}`, single: true });
  for (let i = 0; i < options.onlyB; i++) list.push({ a: 0, b: 1, cluster: `b${i}`, single: true });
  return list;
}

describe('pairedDifference', () => {
  it('calls two fixes in 40 tests noise (24/40 → 26/40)', () => {
    const result = pairedDifference(pairs({ same: 38, onlyA: 0, onlyB: 2 }));
    expect(result.difference).toBe(5);
    expect(result.ci95[0]).toBeLessThan(0);
    expect(result.p_value).toBeCloseTo(0.5, 10);
    expect(result.verdict).toBe('within noise');
  });

  it('calls 14 fixes in 40 tests significant (24/40 → 38/40), and the reverse too', () => {
    const up = pairedDifference(pairs({ same: 26, onlyA: 0, onlyB: 14 }));
    expect(up.difference).toBe(35);
    expect(up.ci95[0]).toBeGreaterThan(0);
    expect(up.verdict).toBe('significant');
    const down = pairedDifference(pairs({ same: 26, onlyA: 14, onlyB: 0 }));
    expect(down.difference).toBe(-35);
    expect(down.ci95[1]).toBeLessThan(0);
    expect(down.verdict).toBe('significant');
  });

  it('needs McNemar to agree with the interval when each test ran once', () => {
    // 5 of 10 flipped one way: the normal interval excludes 0, the exact p is 0.0625.
    const result = pairedDifference(pairs({ same: 5, onlyA: 0, onlyB: 5 }));
    expect(result.ci95[0]).toBeGreaterThan(0);
    expect(result.p_value).toBeCloseTo(0.0625, 10);
    expect(result.verdict).toBe('within noise');
  });

  it('gives no verdict on fewer than 10 shared tests', () => {
    expect(pairedDifference(pairs({ same: 0, onlyA: 0, onlyB: 9 })).verdict).toBe('too few tests');
  });

  it('uses the interval alone with repeats (pass fractions)', () => {
    const list: PairedScore[] = Array.from({ length: 12 }, (_, i) => ({
      a: 1 / 3,
      b: i < 10 ? 1 : 1 / 3,
      cluster: `t${i}`,
      single: false,
    }));
    const result = pairedDifference(list);
    expect(result.p_value).toBeNull();
    expect(result.verdict).toBe('significant');
  });
});
