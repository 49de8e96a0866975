import { describe, expect, it } from 'vitest';
import {
  formatCost,
  formatCostTotal,
  formatInteger,
  formatJsonForDisplay,
  formatNumber,
  formatOneDecimal,
  formatPercent,
  formatSeconds,
  splitModel,
} from './format-values.js';

describe('formatCost', () => {
  it.each<[number | null, string]>([
    [null, '—'],
    [Number.NaN, '—'],
    [0, '$0'],
    [0.089, '$0.089'],
    [0.138, '$0.138'],
    [0.0125, '$0.0125'],
    [0.0375, '$0.0375'],
    [0.08912, '$0.0891'],
    [0.1, '$0.1'],
    [1.23456, '$1.2346'],
    [1.6716, '$1.6716'],
    [12, '$12'],
    [0.0056, '$0.0056'],
    [0.00224, '$0.00224'],
    [0.00042, '$0.00042'],
    [0.000123456, '$0.000123'],
    [0.0000001, '$0.0000001'],
    [0.00999999, '$0.01'],
    [0.1 + 0.2, '$0.3'],
    [-0.5, '-$0.5'],
  ])('%s → %s', (cost, expected) => {
    expect(formatCost(cost)).toBe(expected);
  });

  it('never prints $None or a zero for an unknown cost', () => {
    expect(formatCost(null)).not.toMatch(/None|0|\$/);
  });
});

describe('formatCostTotal', () => {
  it.each<[number | null, number, string]>([
    [0.089, 0, '$0.089'],
    [0.089, 2, '≥$0.089'],
    [null, 3, '—'],
  ])('total %s with %i unpriced runs → %s', (total, unknownRuns, expected) => {
    expect(formatCostTotal({ total, unknownRuns })).toBe(expected);
  });
});

describe('numbers', () => {
  it.each<[number, string]>([
    [702, '0.7'],
    [234, '0.2'],
    [8750, '8.8'],
    [13600, '13.6'],
    [0, '0.0'],
    [49, '0.0'],
    [50, '0.1'],
  ])('formatSeconds(%i ms) = %s', (ms, expected) => {
    expect(formatSeconds(ms)).toBe(expected);
  });

  it.each<[number, string]>([
    [100, '100.0%'],
    [50, '50.0%'],
    [66.7, '66.7%'],
    [0, '0.0%'],
  ])('formatPercent(%d) = %s', (rate, expected) => {
    expect(formatPercent(rate)).toBe(expected);
  });

  it.each<[number, string]>([
    [5.5, '5.5'],
    [8, '8.0'],
    [1.25, '1.3'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('formatOneDecimal(%d) = %s', (value, expected) => {
    expect(formatOneDecimal(value)).toBe(expected);
  });

  it.each<[number, string]>([
    [46000, '46000'],
    [0, '0'],
    [Number.NaN, '—'],
  ])('formatInteger(%d) = %s', (value, expected) => {
    expect(formatInteger(value)).toBe(expected);
  });
});

describe('splitModel', () => {
  it.each<[string, string[]]>([
    ['openai:gpt-4.1', ['openai', 'gpt-4.1']],
    ['anthropic:claude-sonnet-4-5', ['anthropic', 'claude-sonnet-4-5']],
    ['openai:ft:gpt-4o:org:abc', ['openai', 'ft:gpt-4o:org:abc']],
    ['no-provider', ['no-provider']],
    [':odd', [':odd']],
    ['odd:', ['odd:']],
  ])('%s', (model, lines) => {
    expect(splitModel(model)).toEqual(lines);
  });
});

describe('formatNumber', () => {
  it.each<[string, number, string]>([
    ['0.1 + 0.2', 0.1 + 0.2, '0.3'],
    ['a sum with binary noise', 41226.65000000001, '41226.65'],
    ['a sum of prices', 2458.3400000000006, '2458.34'],
    ['1e21', 1e21, '1e+21'],
    ['a large double', 123456789012345680000, '123456789012346000000'],
    ['-0', -0, '0'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['-Infinity', Number.NEGATIVE_INFINITY, '-Infinity'],
    ['the largest safe integer, exactly', Number.MAX_SAFE_INTEGER, '9007199254740991'],
    ['a negative safe integer', -9007199254740991, '-9007199254740991'],
    ['an integer past 2^53', 2 ** 60, '1152921504606850000'],
    ['15 significant digits kept', 1.23456789012345, '1.23456789012345'],
    ['a 17th digit dropped', 0.12345678901234566, '0.123456789012346'],
    ['a tiny double', 1e-7, '1e-7'],
    ['-1.5', -1.5, '-1.5'],
  ])('%s → %s', (_label, value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it('shows the numbers inside arrays and structs the same way, big integers as their digits', () => {
    expect(formatJsonForDisplay({ sales: 2458.3400000000006, ids: [1, 0.1 + 0.2] })).toBe(
      '{"sales":2458.34,"ids":[1,0.3]}',
    );
    expect(formatJsonForDisplay([12345678901234567890n])).toBe('["12345678901234567890"]');
  });
});
