import { describe, expect, it } from 'vitest';
import { compileLinearRegex, toRe2Syntax } from './linear-regex.js';

function compiled(pattern: string, flags?: string) {
  const outcome = compileLinearRegex({ pattern, ...(flags === undefined ? {} : { flags }) });
  if (!outcome.success) throw new Error(`${pattern} did not compile: ${outcome.error}`);
  return outcome.regex;
}

describe('toRe2Syntax', () => {
  it.each([
    ['\\d+(\\.\\d+)? ?%', '\\d+(\\.\\d+)? ?%'],
    ['caf\\u00e9', 'caf\\x{00e9}'],
    ['\\u{1F600}', '\\x{1F600}'],
    ['[\\u0041-\\u005A]', '[\\x{0041}-\\x{005A}]'],
    ['a\\cJb', 'a\\x{a}b'],
    ['start[^]*end', 'start(?s:.)*end'],
    ['[^]a]', '(?s:.)a]'],
    ['(?<year>\\d{4})', '(?<year>\\d{4})'],
    ['[(?=]', '[(?=]'],
    ['\\(?=x', '\\(?=x'],
    ['[\\1]', '[\\1]'],
  ])('%s → %s', (pattern, re2) => {
    expect(toRe2Syntax(pattern)).toEqual({ success: true, pattern: re2 });
  });

  it.each([
    [
      '(a)\\1',
      'uses the backreference \\1: RE2 syntax has no backreferences; write the repeated text out instead',
    ],
    ['(?<q>")\\k<q>', 'uses the backreference \\k<q>: RE2 syntax has no backreferences'],
    [
      'total(?= EUR)',
      'uses lookahead (?=…): RE2 syntax has no lookahead or lookbehind; match the surrounding text instead',
    ],
    ['total(?! EUR)', 'uses negative lookahead (?!…)'],
    ['(?<=\\$)\\d+', 'uses lookbehind (?<=…)'],
    ['(?<!-)\\d+', 'uses negative lookbehind (?<!…)'],
  ])('refuses %s by name', (pattern, error) => {
    const outcome = toRe2Syntax(pattern);
    expect(outcome.success).toBe(false);
    expect(!outcome.success && outcome.error).toContain(error);
  });
});

describe('compileLinearRegex', () => {
  it('matches catastrophic patterns in linear time', () => {
    const started = performance.now();
    expect(compiled('^(a+)+$').test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(compiled('(\\d+,?)+%').test('1'.repeat(26))).toBe(false);
    expect(compiled('(\\d+,?)+%').test(`${'1'.repeat(100_000)}!`)).toBe(false);
    expect(compiled('^(a|aa)+$').test(`${'a'.repeat(5000)}b`)).toBe(false);
    // Backtracking engines take minutes to years on these; RE2 well under a second in all.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(compiled('^(a+)+$').test('a'.repeat(40))).toBe(true);
  });

  it('maps the JavaScript flags: i, m, s', () => {
    expect(compiled('TOTAL').test('total')).toBe(false);
    expect(compiled('TOTAL', 'i').test('total')).toBe(true);
    expect(compiled('ÉTÉ', 'i').test('été')).toBe(true);
    expect(compiled('^b$').test('a\nb')).toBe(false);
    expect(compiled('^b$', 'm').test('a\nb')).toBe(true);
    expect(compiled('a.b').test('a\nb')).toBe(false);
    expect(compiled('a.b', 's').test('a\nb')).toBe(true);
    // Inline flags, which JavaScript refuses, are RE2 syntax.
    expect(compiled('(?i)total').test('TOTAL')).toBe(true);
    expect(compileLinearRegex({ pattern: 'x', flags: 'g' })).toEqual({
      success: false,
      error: 'unsupported flag "g" (supported: i, m, s)',
    });
  });

  it('reads what tests write today the way JavaScript did', () => {
    const answer = 'The total revenue in 2025 was $202,201.54, from 2,500 orders.';
    expect(compiled('\\$\\d{3},\\d{3}\\.\\d{2}').exec(answer)).toEqual({ text: '$202,201.54', index: 30 });
    expect(compiled('\\b2,500\\b').test(answer)).toBe(true);
    expect(compiled('revenue\\/orders|\\bfrom\\b').exec(answer)?.text).toBe('from');
    expect(compiled('caf\\u00e9').test('café')).toBe(true);
    expect(compiled('^The[^]*orders\\.$').test(`The\n${answer}`)).toBe(true);
    expect(compiled('(?<year>\\d{4})').exec(answer)).toEqual({ text: '2025', index: 21 });
  });

  it('says why a pattern does not compile', () => {
    expect(compileLinearRegex({ pattern: 'total (' })).toEqual({
      success: false,
      error: 'is not a valid RE2 regular expression (missing closing ): `total (`)',
    });
    expect(compileLinearRegex({ pattern: 'x{1001}' })).toEqual({
      success: false,
      error: 'is not a valid RE2 regular expression (invalid repeat count: `{1001}`)',
    });
  });
});
