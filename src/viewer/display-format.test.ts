import { describe, expect, it } from 'vitest';
import {
  cellText,
  costText,
  costTotalText,
  elapsedMs,
  integerText,
  percentText,
  secondsText,
  timestampText,
} from './display-format.js';

describe('display formats', () => {
  it.each<[number | null, string]>([
    [null, '—'],
    [0, '$0'],
    [0.0125, '$0.0125'],
    [0.000123456, '$0.000123'],
    [12.5, '$12.5'],
    [Number.NaN, '—'],
  ])('costText(%j) → %s', (cost, expected) => {
    expect(costText(cost)).toBe(expected);
  });

  it.each<[number | null, number, string]>([
    [null, 3, '—'],
    [0.5, 0, '$0.5'],
    [0.5, 2, '≥$0.5'],
  ])('costTotalText(%j, %d unknown) → %s', (total, runsWithoutCost, expected) => {
    expect(costTotalText({ total, runsWithoutCost })).toBe(expected);
  });

  it('prints counts, seconds and rates', () => {
    expect(integerText(46000)).toBe('46,000');
    expect(integerText(Number.POSITIVE_INFINITY)).toBe('—');
    expect(secondsText(702)).toBe('0.7 s');
    expect(secondsText(59_949)).toBe('59.9 s');
    expect(secondsText(250_400)).toBe('4 min 10 s');
    expect(secondsText(29_990_000)).toBe('8 h 19 min');
    expect(secondsText(Number.NaN)).toBe('—');
    expect(percentText(66.7)).toBe('66.7%');
    expect(percentText(100)).toBe('100.0%');
  });

  it.each<[string | null, string]>([
    ['2025-02-09T14:30:22.123000', '2025-02-09 14:30:22'],
    ['yesterday', 'yesterday'],
    [null, '—'],
  ])('timestampText(%j) → %s', (timestamp, expected) => {
    expect(timestampText(timestamp)).toBe(expected);
  });

  it('measures the wall-clock time of a run, and gives up on unreadable stamps', () => {
    expect(elapsedMs('2025-02-09T14:30:22.123000', '2025-02-09T14:31:02.623000')).toBe(40_500);
    expect(elapsedMs('2025-02-09T14:30:22.123000', null)).toBeNull();
    expect(elapsedMs('soon', '2025-02-09T14:30:22.123000')).toBeNull();
    expect(elapsedMs('2025-02-09T14:30:22.123000', '2025-02-09T14:30:21.000000')).toBeNull();
  });

  it.each<[unknown, string]>([
    [null, 'NULL'],
    ['', ''],
    [1.5, '1.5'],
    [false, 'false'],
    [{ a: [1] }, '{"a":[1]}'],
    [0.1 + 0.2, '0.3'],
    [41226.65000000001, '41226.65'],
    [1e21, '1e+21'],
    [-0, '0'],
    [Number.NaN, 'NaN'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
    // Big integers and decimals arrive as exact text and are shown as given.
    ['12345678901234567890', '12345678901234567890'],
    ['2458.3400000000006', '2458.3400000000006'],
    ['0.10', '0.10'],
    [{ sales: 2458.3400000000006 }, '{"sales":2458.34}'],
  ])('cellText(%j) → %j', (value, expected) => {
    expect(cellText(value)).toBe(expected);
  });
});
