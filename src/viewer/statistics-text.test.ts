import { describe, expect, it } from 'vitest';
import { intervalText, recountText, verdictText } from './statistics-text.js';

describe('the words of the statistics in the viewer', () => {
  it.each([
    [
      { tests: 40, difference: 35, ci95: [22.6, 47.4] as [number, number], verdict: 'significant' as const },
      { difference: '+35.0 points (95% CI +22.6 to +47.4)', verdict: 'significant', tone: 'good' },
    ],
    [
      {
        tests: 40,
        difference: -35,
        ci95: [-47.4, -22.6] as [number, number],
        verdict: 'significant' as const,
      },
      { difference: '−35.0 points (95% CI −47.4 to −22.6)', verdict: 'significant', tone: 'bad' },
    ],
    [
      { tests: 40, difference: 5, ci95: [-1.8, 11.8] as [number, number], verdict: 'within noise' as const },
      { difference: '+5.0 points (95% CI −1.8 to +11.8)', verdict: 'within noise', tone: 'plain' },
    ],
    [
      { tests: 6, difference: 16.7, ci95: [-12, 45] as [number, number], verdict: 'too few tests' as const },
      { difference: null, verdict: 'fewer than 10 shared tests (6)', tone: 'plain' },
    ],
  ])('verdictText(%j)', (change, expected) => {
    expect(verdictText(change)).toEqual(expected);
  });

  it('prints an interval as the console does', () => {
    expect(intervalText([44.6, 73.7])).toBe('44.6–73.7%');
    expect(intervalText([0, 43.4])).toBe('0.0–43.4%');
  });

  it('says what the file says beside what nao counts, or that the file counted differently', () => {
    expect(recountText({ fileSays: { passed: 4, total: 6, pass_rate: 66.7 }, naoRate: 50 })).toBe(
      'file says 66.7%, nao counts 50.0%',
    );
    expect(recountText({ fileSays: null, naoRate: 50 })).toBe(
      'recounted: the file counts unverified runs as passed; nao counts 50.0%',
    );
  });
});
