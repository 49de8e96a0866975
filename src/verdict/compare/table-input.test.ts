import { describe, expect, it } from 'vitest';
import { cellOf, findRowProblem, matchColumns, readTable, rowProblem } from './table-input.js';

describe('readTable', () => {
  it('reads { columns, rows } with names or ColumnInfo', () => {
    const result = readTable({
      columns: ['a', { name: 'b', type: 'DATE' }],
      rows: [[1, '2024-01-02']],
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.table.columns).toEqual(['a', 'b']);
    expect(result.table.types).toEqual([undefined, 'DATE']);
    expect(cellOf(result.table, 0, 1)).toBe('2024-01-02');
  });

  it('reads records with keys in first-seen order and missing keys as NULL', () => {
    const result = readTable([{ a: 1 }, { b: 2, a: 3 }]);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.table.columns).toEqual(['a', 'b']);
    expect(cellOf(result.table, 0, 1)).toBeNull();
    expect(cellOf(result.table, 1, 0)).toBe(3);
  });

  it('does not read inherited properties as columns', () => {
    const result = readTable({ columns: ['constructor'], rows: [{}] });
    expect(result.success).toBe(true);
    if (result.success) expect(cellOf(result.table, 0, 0)).toBeNull();
  });

  it.each([
    [null, 'expected { columns, rows } or an array of records, got null'],
    ['text', 'expected { columns, rows } or an array of records, got string "text"'],
    [{ rows: [] }, '`columns` must be an array of column names'],
    [{ columns: ['a'] }, '`rows` must be an array'],
    [{ columns: [1], rows: [] }, 'column 0 must be a name or { name, type }, got number 1'],
    [[{ a: 1 }, 5], 'record 1 must be an object, got number 5'],
    [[[1]], 'record 0 must be an object, got an array'],
  ])('refuses %j: %s', (data, error) => {
    expect(readTable(data)).toEqual({ success: false, error });
  });
});

describe('rowProblem and findRowProblem', () => {
  it.each([
    [[[1, 2], [3]], 'row 1 has 1 values for 2 columns (a, b)'],
    [[[1, 2], 'x'], 'row 1 must be an array, got string "x"'],
    [[[1, 2], null], 'row 1 must be an array, got null'],
    [
      [
        [1, 2],
        [3, 4, 5],
      ],
      'row 1 has 3 values for 2 columns (a, b)',
    ],
    [[[1, 2]], null],
  ])('rows %j: %s', (rows, problem) => {
    const result = readTable({ columns: ['a', 'b'], rows });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(findRowProblem(result.table)).toBe(problem);
    expect(rowProblem(result.table, 0)).toBeNull();
  });

  it('reads a cell of a malformed row as NULL rather than failing', () => {
    const result = readTable({ columns: ['a'], rows: [[1], null] });
    if (result.success) expect(cellOf(result.table, 1, 0)).toBeNull();
  });
});

describe('matchColumns', () => {
  it.each([
    [['a', 'b'], ['b', 'a', 'c'], [1, 0], [], ['c']],
    [['a', 'b'], ['A', 'b'], [-1, 1], ['a'], ['A']],
    [['a', 'a'], ['a', 'x', 'a'], [0, 2], [], ['x']],
    [['a', 'a'], ['a'], [0, -1], ['a'], []],
    [[], ['x'], [], [], ['x']],
  ])('expected %j in actual %j', (expected, actual, actualIndexes, missing, extra) => {
    expect(matchColumns({ expected, actual })).toEqual({ actualIndexes, missing, extra });
  });
});
