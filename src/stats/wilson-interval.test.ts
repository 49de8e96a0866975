import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson-interval.js';

// Newcombe (1998), Statistics in Medicine 17:857–872, Table I, method 3 (score, no continuity correction).
describe('wilsonInterval', () => {
  it.each([
    { successes: 81, trials: 263, low: 0.2553, high: 0.3662 },
    { successes: 15, trials: 148, low: 0.0624, high: 0.1605 },
    { successes: 0, trials: 20, low: 0, high: 0.1611 },
    { successes: 1, trials: 29, low: 0.0061, high: 0.1718 },
    { successes: 29, trials: 29, low: 0.883, high: 1 },
    { successes: 0, trials: 1, low: 0, high: 0.7935 },
    { successes: 1, trials: 1, low: 0.2065, high: 1 },
  ])('$successes/$trials → [$low, $high]', ({ successes, trials, low, high }) => {
    const [gotLow, gotHigh] = wilsonInterval({ successes, trials });
    expect(gotLow).toBeCloseTo(low, 4);
    expect(gotHigh).toBeCloseTo(high, 4);
  });

  it('knows nothing of an empty sample', () => {
    expect(wilsonInterval({ successes: 0, trials: 0 })).toEqual([0, 1]);
  });
});
