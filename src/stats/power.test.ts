import { describe, expect, it } from 'vitest';
import { pairedPower, testsForPower } from './power.js';

describe('paired power', () => {
  // The textbook case: (1.96 + 0.8416)² = 7.849, so sd = detect needs 8 tests for 80%.
  it('needs (z₀.₉₇₅ + z₀.₈)² · (sd / δ)² tests for 80%', () => {
    expect(testsForPower({ sdDifference: 1, detect: 1 })).toBe(8);
    expect(testsForPower({ sdDifference: 0.5, detect: 0.05 })).toBe(785);
    expect(pairedPower({ tests: 785, sdDifference: 0.5, detect: 0.05 })).toBeCloseTo(0.8, 2);
  });

  it('is 2.5% + a little when the change is a tenth of the noise, and Φ(δ/SE − 1.96) in general', () => {
    // δ/SE = 0.05 / (0.5/√40) = 0.632 → Φ(−1.328) = 0.0921
    expect(pairedPower({ tests: 40, sdDifference: 0.5, detect: 0.05 })).toBeCloseTo(0.0921, 3);
  });

  it('has no power without tests, and full power without noise', () => {
    expect(pairedPower({ tests: 0, sdDifference: 0.5, detect: 0.05 })).toBe(0);
    expect(pairedPower({ tests: 10, sdDifference: 0, detect: 0.05 })).toBe(1);
  });
});
