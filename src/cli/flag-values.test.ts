import { describe, expect, it } from 'vitest';
import { secondsFlag } from './flag-values.js';

describe('secondsFlag', () => {
  it('takes a time limit up to what a Node timer holds, and names the limit past it', () => {
    expect(secondsFlag('--timeout', '0.5')).toBe(0.5);
    // 2147483 s is 2,147,483,000 ms, just under the 2^31−1 ms a timer holds.
    expect(secondsFlag('--timeout', '2147483')).toBe(2_147_483);
    expect(() => secondsFlag('--timeout', '2147484')).toThrow(
      '--timeout must be at most 2147483 seconds (about 24 days), got "2147484".',
    );
    expect(() => secondsFlag('--timeout', '0')).toThrow('--timeout must be a number > 0, got "0".');
  });
});
