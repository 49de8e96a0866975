import { describe, expect, it } from 'vitest';
import { mcnemarExactP } from './mcnemar-exact.js';

// Exact two-sided p = 2·P(X ≤ min) for X ~ Binomial(b + c, ½), as R's
// binom.test(min(b, c), b + c)$p.value gives it (e.g. 2 of 12 → 0.03857).
describe('mcnemarExactP', () => {
  it.each([
    { onlyA: 0, onlyB: 0, p: 1 },
    { onlyA: 0, onlyB: 2, p: 0.5 },
    { onlyA: 0, onlyB: 5, p: 0.0625 },
    { onlyA: 0, onlyB: 6, p: 0.03125 },
    { onlyA: 1, onlyB: 5, p: 0.21875 },
    { onlyA: 2, onlyB: 10, p: 0.03857422 },
    { onlyA: 5, onlyB: 5, p: 1 },
    { onlyA: 14, onlyB: 0, p: 0.0001220703 },
  ])('b = $onlyA, c = $onlyB → p = $p', ({ onlyA, onlyB, p }) => {
    expect(mcnemarExactP({ onlyA, onlyB })).toBeCloseTo(p, 7);
  });
});
