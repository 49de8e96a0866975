import { describe, expect, it } from 'vitest';
import { decimalText, LITERAL_MAX_CELLS, LITERAL_MAX_LENGTH, valuesList } from './value-literals.js';

// How the literals load, compared value by value with the appender: load-tables.test.ts.
describe('valuesList', () => {
  it('leaves a table the appender must judge to the appender', () => {
    expect(valuesList({ columns: [], rows: [] })).toBeNull();
    const text = [{ type: { kind: 'VARCHAR' as const }, promised: true }];
    expect(valuesList({ columns: text, rows: [['a'], [null]] })).toBe("VALUES ('a'), (NULL)");
    // A declared text column holding a number: the declared type lied; the appender re-plans.
    expect(valuesList({ columns: text, rows: [['a'], [3]] })).toBeNull();
    // NUL cannot be written in a SQL string literal.
    expect(valuesList({ columns: text, rows: [['a\0b']] })).toBeNull();
    expect(valuesList({ columns: text, rows: [['x'.repeat(LITERAL_MAX_LENGTH)]] })).toBeNull();
    expect(
      valuesList({ columns: text, rows: Array.from({ length: LITERAL_MAX_CELLS + 1 }, () => ['a']) }),
    ).toBeNull();
    const date = [{ type: { kind: 'DATE' as const }, promised: true }];
    expect(valuesList({ columns: date, rows: [['2024-02-30']] })).toBeNull();
    const integer = [{ type: { kind: 'BIGINT' as const }, promised: false }];
    expect(valuesList({ columns: integer, rows: [['9223372036854775808']] })).toBeNull();
    expect(valuesList({ columns: integer, rows: [[1.5]] })).toBeNull();
  });
});

describe('decimalText', () => {
  it('spells a decimal from its unscaled integer', () => {
    expect(decimalText(12345, 2)).toBe('123.45');
    expect(decimalText(-5, 2)).toBe('-0.05');
    expect(decimalText(0, 3)).toBe('0.000');
    expect(decimalText(7, 0)).toBe('7');
    expect(decimalText(-(10n ** 37n), 38)).toBe('-0.10000000000000000000000000000000000000');
  });
});
