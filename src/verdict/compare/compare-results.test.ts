import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test-support/example-warehouse/index.js';
import { NaoError } from '../../errors/index.js';
import type { CellValue } from '../../warehouse/database.js';
import { type CompareOptions, compareResults } from './compare-results.js';
import type { ResultData } from './table-input.js';

const DEFAULTS = { rtol: 0.00001, atol: 0.00000001, decimals: 2 };

/** A table from column names and rows. */
const table = (columns: string[], rows: CellValue[][]): ResultData => ({ columns, rows });
/** A one-column table `v` from its values. */
const column = (...values: CellValue[]): ResultData =>
  table(
    ['v'],
    values.map((value) => [value]),
  );

/** Deterministic shuffle (mulberry32), so a failing case reproduces. */
function shuffled<T>(items: readonly T[], seed = 1): T[] {
  const next = seededRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const WIDE_COLUMNS = Array.from({ length: 50 }, (_, index) => `c${String(index).padStart(2, '0')}`);
const wideRows = Array.from({ length: 40 }, (_, row) =>
  WIDE_COLUMNS.map((_, index) =>
    index % 3 === 0 ? `r${row}c${index}` : index % 3 === 1 ? row * index : row / 7,
  ),
);
const wideChanged = wideRows.map((row, index) =>
  index === 17 ? row.map((v, c) => (c === 31 ? 'changed' : v)) : row,
);

const LONG_COLUMNS = ['id', 'region', 'day', 'amount'];
const longRows: CellValue[][] = Array.from({ length: 10_000 }, (_, id) => [
  id,
  ['EU', 'US', 'APAC'][id % 3]!,
  `2024-${String((id % 12) + 1).padStart(2, '0')}-${String((id % 28) + 1).padStart(2, '0')}`,
  Math.round(id * 1.37 * 100) / 100,
]);
const longChanged = longRows.map((row, index) => (index === 4321 ? [row[0]!, row[1]!, row[2]!, 0.5] : row));
const longDuplicated = longRows.map((row, index) => (index === 10 ? longRows[11]! : row));

type Case = [
  name: string,
  options: Omit<CompareOptions, 'tolerances'> & { tolerances?: CompareOptions['tolerances'] },
  passed: boolean,
  message: string,
];

const cases: Case[] = [
  // 1. no actual data
  ['actual null', { actual: null, expected: column(1) }, false, 'no data returned'],
  ['actual undefined', { actual: undefined, expected: column(1) }, false, 'no data returned'],
  [
    'actual null with the extraction error',
    { actual: null, actualError: 'Binder Error: no column x', expected: column(1) },
    false,
    'Binder Error: no column x',
  ],
  [
    'actual null with a blank error',
    { actual: null, actualError: '  ', expected: column(1) },
    false,
    'no data returned',
  ],
  [
    'actual null with a null error',
    { actual: null, actualError: null, expected: column(1) },
    false,
    'no data returned',
  ],
  [
    'no data fails even when expected is empty',
    { actual: null, expected: column() },
    false,
    'no data returned',
  ],
  [
    'an error with data is not a failure',
    { actual: column(1), actualError: 'repaired', expected: column(1) },
    true,
    'match',
  ],
  // 2. empty sides
  ['both empty', { actual: column(), expected: column() }, true, 'both empty'],
  ['both empty as records', { actual: [], expected: [] }, true, 'both empty'],
  [
    'both empty with other columns',
    { actual: table(['x'], []), expected: table(['a'], []) },
    true,
    'both empty',
  ],
  ['actual empty', { actual: column(), expected: column(1) }, false, 'actual is empty'],
  ['actual empty records', { actual: [], expected: column(1) }, false, 'actual is empty'],
  ['expected empty', { actual: column(1), expected: column() }, false, 'expected is empty'],
  [
    'emptiness is checked before columns',
    { actual: table(['x'], [[1]]), expected: table(['a'], []) },
    false,
    'expected is empty',
  ],
  // 3. columns
  [
    'one missing column',
    { actual: table(['a'], [[1]]), expected: table(['a', 'b'], [[1, 2]]) },
    false,
    'missing columns: b',
  ],
  [
    'missing columns in expected order',
    { actual: table(['x'], [[1]]), expected: table(['b', 'a'], [[1, 2]]) },
    false,
    'missing columns: b, a',
  ],
  [
    'column names are case-sensitive',
    { actual: table(['A'], [[1]]), expected: table(['a'], [[1]]) },
    false,
    'missing columns: a',
  ],
  [
    'column names are not trimmed',
    { actual: table(['a '], [[1]]), expected: table(['a'], [[1]]) },
    false,
    'missing columns: a',
  ],
  [
    'extra actual columns are ignored',
    { actual: table(['a', 'extra'], [[1, 'zz']]), expected: table(['a'], [[1]]) },
    true,
    'match',
  ],
  [
    'extra columns are ignored even when they differ',
    {
      actual: table(
        ['a', 'x'],
        [
          [1, 1],
          [2, 9],
        ],
      ),
      expected: table(['a'], [[2], [1]]),
    },
    true,
    'match',
  ],
  [
    'columns in another order',
    { actual: table(['b', 'a'], [[2, 1]]), expected: table(['a', 'b'], [[1, 2]]) },
    true,
    'match',
  ],
  [
    'columns are checked before row count',
    { actual: table(['x'], [[1], [2]]), expected: table(['a'], [[1]]) },
    false,
    'missing columns: a',
  ],
  [
    'a column listed twice matches the same name twice',
    { actual: table(['a', 'a'], [[1, 2]]), expected: table(['a', 'a'], [[1, 2]]) },
    true,
    'match',
  ],
  [
    'a column listed twice needs it twice',
    { actual: table(['a'], [[1]]), expected: table(['a', 'a'], [[1, 1]]) },
    false,
    'missing columns: a',
  ],
  // 4. row count
  ['more actual rows', { actual: column(1, 2), expected: column(1) }, false, 'row count: 2 vs 1'],
  ['fewer actual rows', { actual: column(1), expected: column(1, 2, 3) }, false, 'row count: 1 vs 3'],
  [
    'a duplicated row changes the count',
    { actual: column(1, 1), expected: column(1) },
    false,
    'row count: 2 vs 1',
  ],
  // 5-6. exact match, multisets
  ['same rows', { actual: column(1, 2, 3), expected: column(1, 2, 3) }, true, 'match'],
  ['row order is ignored', { actual: column(3, 1, 2), expected: column(1, 2, 3) }, true, 'match'],
  [
    'rows sort by all columns',
    {
      actual: table(
        ['a', 'b'],
        [
          [1, 'y'],
          [1, 'x'],
        ],
      ),
      expected: table(
        ['a', 'b'],
        [
          [1, 'x'],
          [1, 'y'],
        ],
      ),
    },
    true,
    'match',
  ],
  [
    'duplicates count: [a,a,b] vs [b,a,a]',
    { actual: column('a', 'a', 'b'), expected: column('b', 'a', 'a') },
    true,
    'match',
  ],
  [
    'duplicates count: [a,a,b] vs [a,b,b]',
    { actual: column('a', 'a', 'b'), expected: column('a', 'b', 'b') },
    false,
    'values differ',
  ],
  [
    'a swapped cell between rows differs',
    {
      actual: table(
        ['a', 'b'],
        [
          [1, 'x'],
          [2, 'y'],
        ],
      ),
      expected: table(
        ['a', 'b'],
        [
          [1, 'y'],
          [2, 'x'],
        ],
      ),
    },
    false,
    'values differ',
  ],
  ['1 equals 1.0', { actual: column(1), expected: column(1.0) }, true, 'match'],
  ["'1.50' equals 1.5", { actual: column('1.50'), expected: column(1.5) }, true, 'match'],
  ['a number equals its string', { actual: column('42'), expected: column(42) }, true, 'match'],
  [
    'big integers compare exactly',
    { actual: column('9223372036854775807'), expected: column('9223372036854775807') },
    true,
    'match',
  ],
  [
    'big integers one apart are approximately equal under rtol',
    { actual: column('9223372036854775807'), expected: column('9223372036854775806') },
    true,
    'match (approximate)',
  ],
  [
    'big integers one apart differ without tolerance',
    {
      actual: column('9223372036854775807'),
      expected: column('9223372036854775806'),
      tolerances: { rtol: 0, atol: 0, decimals: 2 },
    },
    false,
    'values differ',
  ],
  [
    '2^53+1 is not 2^53',
    {
      actual: column('9007199254740993'),
      expected: column(9007199254740992),
      tolerances: { rtol: 0, atol: 0, decimals: 2 },
    },
    false,
    'values differ',
  ],
  [
    'a DECIMAL string equals the float it prints',
    { actual: column(1234.56), expected: column('1234.5600') },
    true,
    'match',
  ],
  [
    'HUGEINT strings',
    {
      actual: column('-170141183460469231731687303715884105728'),
      expected: column('-170141183460469231731687303715884105728'),
    },
    true,
    'match',
  ],
  // rounding to `decimals`
  ['1.231 and 1.234 both round to 1.23', { actual: column(1.234), expected: column(1.231) }, true, 'match'],
  ['1.234 and 1.235 round apart', { actual: column(1.235), expected: column(1.234) }, false, 'values differ'],
  [
    '2.675 rounds to 2.68 (its digits, not its binary value)',
    { actual: column(2.675), expected: column(2.68) },
    true,
    'match',
  ],
  [
    '-2.675 rounds to -2.68 (away from zero)',
    { actual: column(-2.675), expected: column(-2.68) },
    true,
    'match',
  ],
  ['2.665 rounds up to 2.67', { actual: column(2.665), expected: column(2.67) }, true, 'match'],
  ['2.665 does not round to 2.66', { actual: column(2.665), expected: column(2.66) }, false, 'values differ'],
  ['1.005 rounds to 1.01', { actual: column(1.005), expected: column('1.01') }, true, 'match'],
  [
    'decimals 0: 2.5 rounds to 3',
    { actual: column(2.5), expected: column(3), tolerances: { ...DEFAULTS, decimals: 0 } },
    true,
    'match',
  ],
  [
    'decimals 0: 2.4 rounds to 2',
    { actual: column(2.4), expected: column(2), tolerances: { ...DEFAULTS, decimals: 0 } },
    true,
    'match',
  ],
  [
    'decimals 0: 2.5 is not 2',
    { actual: column(2.5), expected: column(2), tolerances: { ...DEFAULTS, decimals: 0 } },
    false,
    'values differ',
  ],
  [
    'decimals 3: 1.2345 rounds to 1.235',
    { actual: column(1.2345), expected: column(1.235), tolerances: { ...DEFAULTS, decimals: 3 } },
    true,
    'match',
  ],
  [
    'decimals 3: 1.2344 is not 1.235',
    { actual: column(1.2344), expected: column(1.235), tolerances: { ...DEFAULTS, decimals: 3 } },
    false,
    'values differ',
  ],
  ['0.1 + 0.2 rounds to 0.3', { actual: column(0.1 + 0.2), expected: column(0.3) }, true, 'match'],
  [
    'noise across a rounding boundary is not a difference',
    { actual: column(0.12499999999), expected: column('0.125') },
    true,
    'match (approximate)',
  ],
  [
    'noise below 1.005',
    { actual: column(1.0049999999999), expected: column(1.005) },
    true,
    'match (approximate)',
  ],
  [
    '1e-11 noise with many decimals',
    { actual: column(1.00000000001), expected: column(1), tolerances: { ...DEFAULTS, decimals: 12 } },
    true,
    'match (approximate)',
  ],
  // tolerance boundaries
  [
    'atol: just inside (1.1 vs 1.0, atol 0.1)',
    { actual: column(1.1), expected: column(1.0), tolerances: { rtol: 0, atol: 0.1, decimals: 2 } },
    true,
    'match (approximate)',
  ],
  [
    'atol: just outside (1.11 vs 1.0, atol 0.1)',
    { actual: column(1.11), expected: column(1.0), tolerances: { rtol: 0, atol: 0.1, decimals: 2 } },
    false,
    'values differ',
  ],
  [
    'rtol: just inside (101 vs 100, rtol 0.01)',
    { actual: column(101), expected: column(100), tolerances: { rtol: 0.01, atol: 0, decimals: 2 } },
    true,
    'match (approximate)',
  ],
  [
    'rtol: just outside (101.01 vs 100, rtol 0.01)',
    { actual: column(101.01), expected: column(100), tolerances: { rtol: 0.01, atol: 0, decimals: 2 } },
    false,
    'values differ',
  ],
  [
    'rtol is relative to the expected value',
    { actual: column(100), expected: column(90.9), tolerances: { rtol: 0.1, atol: 0, decimals: 2 } },
    false,
    'values differ',
  ],
  [
    'default rtol: 100001 vs 100000 is inside',
    { actual: column(100001), expected: column(100000) },
    true,
    'match (approximate)',
  ],
  [
    'default rtol: 100002 vs 100000 is outside',
    { actual: column(100002), expected: column(100000) },
    false,
    'values differ',
  ],
  [
    'tolerance applies to numbers written as text',
    { actual: column('100,001'), expected: column(100000) },
    true,
    'match (approximate)',
  ],
  ['no tolerance for text', { actual: column('abc'), expected: column('abd') }, false, 'values differ'],
  [
    'no tolerance for dates',
    { actual: column('2024-01-02'), expected: column('2024-01-03') },
    false,
    'values differ',
  ],
  [
    'zero tolerance is exact',
    { actual: column(1.001), expected: column(1), tolerances: { rtol: 0, atol: 0, decimals: 3 } },
    false,
    'values differ',
  ],
  [
    'approximate rows pair one to one',
    { actual: column(1, 1), expected: column(1, 1.0000001), tolerances: { ...DEFAULTS, decimals: 10 } },
    true,
    'match (approximate)',
  ],
  ['approximate needs every row', { actual: column(1, 1), expected: column(1, 1.5) }, false, 'values differ'],
  [
    'approximate with other columns exact',
    {
      actual: table(
        ['k', 'x'],
        [
          ['a', 1.0000001],
          ['b', 2],
        ],
      ),
      expected: table(
        ['k', 'x'],
        [
          ['b', 2],
          ['a', 1],
        ],
      ),
      tolerances: { ...DEFAULTS, decimals: 10 },
    },
    true,
    'match (approximate)',
  ],
  [
    'approximate numbers but a text differs',
    { actual: table(['k', 'x'], [['a', 1.0000001]]), expected: table(['k', 'x'], [['b', 1]]) },
    false,
    'values differ',
  ],
  [
    'near-equal measures in crossed rows still pair',
    {
      actual: table(
        ['k', 'x'],
        [
          ['a', 1.0000001],
          ['b', 1],
        ],
      ),
      expected: table(
        ['k', 'x'],
        [
          ['a', 1],
          ['b', 1.0000001],
        ],
      ),
      tolerances: { ...DEFAULTS, decimals: 10 },
    },
    true,
    'match (approximate)',
  ],
  // NULL, NaN, booleans
  ['NULL equals NULL', { actual: column(null), expected: column(null) }, true, 'match'],
  ['NULL is not 0', { actual: column(0), expected: column(null) }, false, 'values differ'],
  ["NULL is not ''", { actual: column(''), expected: column(null) }, false, 'values differ'],
  ["NULL is not 'NULL'", { actual: column('NULL'), expected: column(null) }, false, 'values differ'],
  ['NaN equals NaN', { actual: column(Number.NaN), expected: column(Number.NaN) }, true, 'match'],
  ["NaN equals 'NaN'", { actual: column('NaN'), expected: column(Number.NaN) }, true, 'match'],
  ['NaN is not NULL', { actual: column(Number.NaN), expected: column(null) }, false, 'values differ'],
  ["true is not 'true'", { actual: column('true'), expected: column(true) }, false, 'values differ'],
  ['true is not 1', { actual: column(1), expected: column(true) }, false, 'values differ'],
  ['false is not 0', { actual: column(0), expected: column(false) }, false, 'values differ'],
  ['booleans match', { actual: column(false, true), expected: column(true, false) }, true, 'match'],
  // dates and timestamps
  [
    'a date equals its midnight (T)',
    { actual: column('2024-01-02T00:00:00'), expected: column('2024-01-02') },
    true,
    'match',
  ],
  [
    'a date equals its midnight (space)',
    { actual: column('2024-01-02 00:00:00'), expected: column('2024-01-02') },
    true,
    'match',
  ],
  [
    'an offset is applied',
    { actual: column('2024-01-02T01:00:00+01:00'), expected: column('2024-01-02T00:00:00Z') },
    true,
    'match',
  ],
  [
    'a naive timestamp is UTC',
    { actual: column('2024-01-02T00:00:00'), expected: column('2024-01-02 00:00:00+00') },
    true,
    'match',
  ],
  [
    'microseconds count',
    { actual: column('2024-01-02 00:00:00.000001'), expected: column('2024-01-02 00:00:00') },
    false,
    'values differ',
  ],
  [
    'trailing fraction zeros do not',
    { actual: column('2024-01-02 00:00:00.100000'), expected: column('2024-01-02 00:00:00.1') },
    true,
    'match',
  ],
  [
    'another day differs',
    { actual: column('2024-01-03'), expected: column('2024-01-02') },
    false,
    'values differ',
  ],
  [
    'a date is not free text',
    { actual: column('Jan 2, 2024'), expected: column('2024-01-02') },
    false,
    'values differ',
  ],
  [
    'infinite dates with types',
    {
      actual: table([{ name: 'd', type: 'DATE' }] as never, [['infinity']]),
      expected: { columns: [{ name: 'd', type: 'date' }], rows: [['infinity']] },
    },
    true,
    'match',
  ],
  // formatted numbers from answers
  [
    "'52,123,123' equals 52123123",
    { actual: column('52,123,123'), expected: column(52123123) },
    true,
    'match',
  ],
  ["'$1,234.50' equals 1234.5", { actual: column('$1,234.50'), expected: column(1234.5) }, true, 'match'],
  ["'€1.234,50' equals 1234.5", { actual: column('€1.234,50'), expected: column(1234.5) }, true, 'match'],
  ["'1 234,5' equals 1234.5", { actual: column('1 234,5'), expected: column(1234.5) }, true, 'match'],
  ["'1.234,5' equals 1234.5", { actual: column('1.234,5'), expected: column(1234.5) }, true, 'match'],
  ["'1,234' equals 1234", { actual: column('1,234'), expected: column(1234) }, true, 'match'],
  ["'1.234' is not 1234", { actual: column('1.234'), expected: column(1234) }, false, 'values differ'],
  [
    "'1.234' is 1.234",
    { actual: column('1.234'), expected: column(1.234), tolerances: { ...DEFAULTS, decimals: 3 } },
    true,
    'match',
  ],
  ["'(1,234)' is -1234", { actual: column('(1,234)'), expected: column(-1234) }, true, 'match'],
  ["'abc1' stays text", { actual: column('abc1'), expected: column(1) }, false, 'values differ'],
  ["'007' stays text", { actual: column('007'), expected: column(7) }, false, 'values differ'],
  ["'12%' is neither 12", { actual: column('12%'), expected: column(12) }, false, 'values differ'],
  ["'12%' nor 0.12", { actual: column('12%'), expected: column(0.12) }, false, 'values differ'],
  ["'12%' equals '12.0 %'", { actual: column('12%'), expected: column('12.0 %') }, true, 'match'],
  // mixed kinds in one column
  [
    'a mixed column in another order',
    {
      actual: column(2.5, 'a', null, true, '2024-01-01', Number.NaN, 1),
      expected: column(1, Number.NaN, '2024-01-01', true, null, 'a', 2.5),
    },
    true,
    'match',
  ],
  ["a mixed column reads '1' as 1", { actual: column('1', 'a'), expected: column('a', 1) }, true, 'match'],
  [
    'a mixed column with a changed text',
    { actual: column(1, 'b'), expected: column(1, 'a') },
    false,
    'values differ',
  ],
  [
    'a number never equals a date',
    { actual: column(1704153600), expected: column('2024-01-02') },
    false,
    'values differ',
  ],
  // ordered
  [
    'ordered: same order',
    { actual: column(1, 2, 3), expected: column(1, 2, 3), ordered: true },
    true,
    'match',
  ],
  [
    'ordered: another order differs',
    { actual: column(2, 1, 3), expected: column(1, 2, 3), ordered: true },
    false,
    'values differ',
  ],
  [
    'ordered: approximate',
    {
      actual: column(1.0000001, 2),
      expected: column(1, 2),
      ordered: true,
      tolerances: { ...DEFAULTS, decimals: 10 },
    },
    true,
    'match (approximate)',
  ],
  [
    'ordered: duplicates',
    { actual: column('a', 'a', 'b'), expected: column('a', 'a', 'b'), ordered: true },
    true,
    'match',
  ],
  [
    'ordered: row count first',
    { actual: column(1), expected: column(1, 2), ordered: true },
    false,
    'row count: 1 vs 2',
  ],
  // unicode
  ['NFC equals NFD', { actual: column('Cafe\u0301'), expected: column('Caf\u00e9') }, true, 'match'],
  ['accents count', { actual: column('Cafe'), expected: column('Café') }, false, 'values differ'],
  ['case counts', { actual: column('paris'), expected: column('Paris') }, false, 'values differ'],
  ['spaces count', { actual: column('Paris '), expected: column('Paris') }, false, 'values differ'],
  [
    'zero-width characters count',
    { actual: column('Pa\u200bris'), expected: column('Paris') },
    false,
    'values differ',
  ],
  [
    'emoji and CJK',
    { actual: column('東京 🗼', 'Zürich'), expected: column('Zürich', '東京 🗼') },
    true,
    'match',
  ],
  // records
  [
    'records against arrays',
    { actual: [{ b: 'x', a: 1 }], expected: table(['a', 'b'], [[1, 'x']]) },
    true,
    'match',
  ],
  [
    'a missing record key is NULL',
    {
      actual: [{ a: 1 }, { a: 2, b: 'y' }],
      expected: table(
        ['a', 'b'],
        [
          [2, 'y'],
          [1, null],
        ],
      ),
    },
    true,
    'match',
  ],
  // wide and long
  [
    '50 columns, shuffled',
    { actual: table(WIDE_COLUMNS, shuffled(wideRows)), expected: table(WIDE_COLUMNS, wideRows) },
    true,
    'match',
  ],
  [
    '50 columns, one cell changed',
    { actual: table(WIDE_COLUMNS, shuffled(wideChanged)), expected: table(WIDE_COLUMNS, wideRows) },
    false,
    'values differ',
  ],
  [
    '10,000 rows, shuffled',
    { actual: table(LONG_COLUMNS, shuffled(longRows)), expected: table(LONG_COLUMNS, longRows) },
    true,
    'match',
  ],
  [
    '10,000 rows, same order',
    {
      actual: table(
        LONG_COLUMNS,
        longRows.map((row) => [...row]),
      ),
      expected: table(LONG_COLUMNS, longRows),
    },
    true,
    'match',
  ],
  [
    '10,000 rows, one value changed',
    { actual: table(LONG_COLUMNS, shuffled(longChanged)), expected: table(LONG_COLUMNS, longRows) },
    false,
    'values differ',
  ],
  [
    '10,000 rows, one row duplicated instead of another',
    { actual: table(LONG_COLUMNS, shuffled(longDuplicated)), expected: table(LONG_COLUMNS, longRows) },
    false,
    'values differ',
  ],
  // malformed answer data
  [
    'a ragged actual row',
    { actual: table(['a', 'b'], [[1]]), expected: table(['a', 'b'], [[1, 2]]) },
    false,
    'actual data is not a table: row 0 has 1 values for 2 columns (a, b)',
  ],
  [
    'actual data of the wrong shape',
    { actual: 'rows' as never, expected: column(1) },
    false,
    'actual data is not a table: expected { columns, rows } or an array of records, got string "rows"',
  ],
];

describe('compareResults', () => {
  it('has a case for every rule', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  it.each(cases)('%s', (_name, options, passed, message) => {
    const result = compareResults({ tolerances: DEFAULTS, ...options });
    expect({ passed: result.passed, message: result.message }).toEqual({ passed, message });
    // Evidence comes with every failure that had data to compare.
    const hadData =
      options.actual !== null && options.actual !== undefined && !message.startsWith('actual data is not');
    expect(result.diff !== null).toBe(!passed && hadData);
  });
});

describe('compareResults diff', () => {
  it('pairs rows by their identifying columns and lists the differing cells', () => {
    const result = compareResults({
      actual: table(
        ['region', 'revenue'],
        [
          ['US', 3.5],
          ['EU', 105.2],
          ['FR', 1],
        ],
      ),
      expected: table(
        ['region', 'revenue'],
        [
          ['EU', 100.5],
          ['US', 3.5],
          ['DE', 2],
        ],
      ),
      tolerances: DEFAULTS,
    });
    expect(result.diff).toEqual({
      kind: 'values',
      columns: ['region', 'revenue'],
      missingColumns: [],
      extraColumns: [],
      rowCount: { actual: 3, expected: 3 },
      mismatches: [
        {
          actualRowIndex: 1,
          expectedRowIndex: 0,
          cells: [{ column: 'revenue', actual: 105.2, expected: 100.5 }],
          actualRow: ['EU', 105.2],
          expectedRow: ['EU', 100.5],
        },
      ],
      onlyInActual: [{ rowIndex: 2, values: ['FR', 1] }],
      onlyInExpected: [{ rowIndex: 2, values: ['DE', 2] }],
      counts: { mismatchedRows: 1, onlyInActual: 1, onlyInExpected: 1 },
      truncated: null,
    });
  });

  it('shows values as given, not normalised, and leaves out cells within tolerance', () => {
    const result = compareResults({
      actual: table(['id', 'amount', 'share'], [[1, '$1,000.00', 0.3333333]]),
      expected: table(['id', 'amount', 'share'], [[1, 999, 0.33333334]]),
      tolerances: { ...DEFAULTS, decimals: 10 },
    });
    expect(result.message).toBe('values differ');
    expect(result.diff?.mismatches).toEqual([
      {
        actualRowIndex: 0,
        expectedRowIndex: 0,
        cells: [{ column: 'amount', actual: '$1,000.00', expected: 999 }],
        actualRow: [1, '$1,000.00', 0.3333333],
        expectedRow: [1, 999, 0.33333334],
      },
    ]);
  });

  it('keeps a one-column difference as rows present on one side', () => {
    const result = compareResults({
      actual: column(1, 2, 4),
      expected: column(3, 1, 2),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.mismatches).toEqual([]);
    expect(result.diff?.onlyInActual).toEqual([{ rowIndex: 2, values: [4] }]);
    expect(result.diff?.onlyInExpected).toEqual([{ rowIndex: 0, values: [3] }]);
  });

  it('shows an extra duplicate as a row only in the answer', () => {
    const result = compareResults({
      actual: column('a', 'a', 'b'),
      expected: column('a', 'b', 'b'),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.onlyInActual).toEqual([{ rowIndex: 1, values: ['a'] }]);
    expect(result.diff?.onlyInExpected).toEqual([{ rowIndex: 2, values: ['b'] }]);
  });

  it('names the changed cell of a wide table', () => {
    const result = compareResults({
      actual: table(WIDE_COLUMNS, wideChanged),
      expected: table(WIDE_COLUMNS, wideRows),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.mismatches.map((mismatch) => [mismatch.expectedRowIndex, mismatch.cells])).toEqual([
      [17, [{ column: 'c31', actual: 'changed', expected: wideRows[17]![31] }]],
    ]);
  });

  it('finds the changed row among 10,000 shuffled rows', () => {
    const actualRows = shuffled(longChanged, 7);
    const result = compareResults({
      actual: table(LONG_COLUMNS, actualRows),
      expected: table(LONG_COLUMNS, longRows),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.counts).toEqual({ mismatchedRows: 1, onlyInActual: 0, onlyInExpected: 0 });
    const mismatch = result.diff?.mismatches[0];
    expect(mismatch?.expectedRowIndex).toBe(4321);
    expect(actualRows[mismatch!.actualRowIndex]).toBe(longChanged[4321]);
    expect(mismatch?.cells).toEqual([{ column: 'amount', actual: 0.5, expected: longRows[4321]![3] }]);
  });

  it.each([
    [0, { shown: 0, total: 114 }, 0],
    [20, { shown: 20, total: 114 }, 20],
    [113, { shown: 113, total: 114 }, 113],
    [114, null, 114],
    [500, null, 114],
  ])('shows at most diffLimit %i rows and counts the rest', (diffLimit, truncated, shown) => {
    const expected = Array.from({ length: 57 }, (_, index) => index);
    const result = compareResults({
      actual: column(...expected.map((value) => value + 1000)),
      expected: column(...expected),
      tolerances: DEFAULTS,
      diffLimit,
    });
    expect(result.diff?.truncated).toEqual(truncated);
    expect((result.diff?.onlyInExpected.length ?? 0) + (result.diff?.onlyInActual.length ?? 0)).toBe(shown);
    expect(result.diff?.counts).toEqual({ mismatchedRows: 0, onlyInActual: 57, onlyInExpected: 57 });
  });

  it('explains 200,000 changed rows without overflowing the stack', () => {
    const ids = Array.from({ length: 200_000 }, (_, id) => id);
    const result = compareResults({
      actual: table(
        ['id', 'v'],
        ids.map((id) => [id, (id % 1000) + 0.5]),
      ),
      expected: table(
        ['id', 'v'],
        ids.map((id) => [id, (id % 1000) + 1.5]),
      ),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.counts).toEqual({ mismatchedRows: 200_000, onlyInActual: 0, onlyInExpected: 0 });
    expect(result.diff?.mismatches).toHaveLength(20);
  });

  it('pairs rows by their ids even when neighbouring ids are within rtol of each other', () => {
    const ids = Array.from({ length: 50 }, (_, index) => 100_000 + index);
    const result = compareResults({
      actual: table(
        ['id', 'name'],
        ids.map((id) => [id, `n${id + 1}`]),
      ),
      expected: table(
        ['id', 'name'],
        ids.map((id) => [id, `n${id}`]),
      ),
      tolerances: DEFAULTS,
    });
    expect(result.message).toBe('values differ');
    expect(result.diff?.counts).toEqual({ mismatchedRows: 50, onlyInActual: 0, onlyInExpected: 0 });
    expect(result.diff?.mismatches[0]?.cells).toEqual([
      { column: 'name', actual: 'n100001', expected: 'n100000' },
    ]);
  });

  it('shows 20 rows by default', () => {
    const values = Array.from({ length: 30 }, (_, index) => index);
    const result = compareResults({
      actual: table(
        ['k', 'v'],
        values.map((value) => [value, 'x']),
      ),
      expected: table(
        ['k', 'v'],
        values.map((value) => [value, 'y']),
      ),
      tolerances: DEFAULTS,
    });
    expect(result.diff?.mismatches).toHaveLength(20);
    expect(result.diff?.truncated).toEqual({ shown: 20, total: 30 });
  });

  it('explains a row count difference with the rows that do not match', () => {
    const result = compareResults({
      actual: table(
        ['k', 'x'],
        [
          ['a', 1],
          ['b', 2],
          ['c', 3],
        ],
      ),
      expected: table(
        ['k', 'x'],
        [
          ['b', 5],
          ['a', 1],
        ],
      ),
      tolerances: DEFAULTS,
    });
    expect(result.message).toBe('row count: 3 vs 2');
    expect(result.diff?.kind).toBe('row_count');
    expect(result.diff?.mismatches.map((mismatch) => mismatch.cells)).toEqual([
      [{ column: 'x', actual: 2, expected: 5 }],
    ]);
    expect(result.diff?.onlyInActual).toEqual([{ rowIndex: 2, values: ['c', 3] }]);
  });

  it('lists the missing and the unexpected columns', () => {
    const result = compareResults({
      actual: table(['revenue', 'region'], [[1, 'EU']]),
      expected: table(['region', 'total_revenue'], [['EU', 1]]),
      tolerances: DEFAULTS,
    });
    expect(result.diff).toMatchObject({
      kind: 'missing_columns',
      columns: ['region', 'total_revenue'],
      missingColumns: ['total_revenue'],
      extraColumns: ['revenue'],
      rowCount: { actual: 1, expected: 1 },
      mismatches: [],
    });
  });

  it('shows the expected rows when the answer is empty', () => {
    const result = compareResults({ actual: [], expected: table(['a'], [[1], [2]]), tolerances: DEFAULTS });
    expect(result.diff).toMatchObject({
      kind: 'row_count',
      columns: ['a'],
      rowCount: { actual: 0, expected: 2 },
      onlyInExpected: [
        { rowIndex: 0, values: [1] },
        { rowIndex: 1, values: [2] },
      ],
    });
  });

  it('shows the answer rows in the expected columns when the reference is empty', () => {
    const result = compareResults({
      actual: table(['x', 'a'], [['ignored', 1]]),
      expected: table(['a'], []),
      tolerances: DEFAULTS,
    });
    expect(result.diff).toMatchObject({ columns: ['a'], onlyInActual: [{ rowIndex: 0, values: [1] }] });
  });

  it('compares ordered rows position by position', () => {
    const result = compareResults({
      actual: column(2, 1),
      expected: column(1, 2),
      tolerances: DEFAULTS,
      ordered: true,
    });
    expect(result.diff?.mismatches).toEqual([
      {
        actualRowIndex: 0,
        expectedRowIndex: 0,
        cells: [{ column: 'v', actual: 2, expected: 1 }],
        actualRow: [2],
        expectedRow: [1],
      },
      {
        actualRowIndex: 1,
        expectedRowIndex: 1,
        cells: [{ column: 'v', actual: 1, expected: 2 }],
        actualRow: [1],
        expectedRow: [2],
      },
    ]);
  });
});

describe('compareResults errors', () => {
  it('refuses expected data that is not a table: a caller bug, not a verdict', () => {
    expect(() => compareResults({ actual: column(1), expected: null as never })).toThrow(NaoError);
    try {
      compareResults({ actual: column(1), expected: { columns: ['a'], rows: [[1, 2]] } });
    } catch (error) {
      expect(error).toMatchObject({
        code: 'COMPARE_INVALID_EXPECTED',
        message: expect.stringContaining('row 0 has 2 values for 1 columns (a)'),
      });
    }
  });

  it.each([
    ['no data', null],
    ['data that is not a table', 'x'],
    ['empty data', column()],
    ['data without its columns', table(['x'], [[1]])],
    ['comparable data', column(2)],
  ])('refuses a malformed expected row even with %s as the answer', (_name, actual) => {
    expect(() =>
      compareResults({
        actual: actual as never,
        expected: table(['v'], [[1], [2, 3]]),
        tolerances: DEFAULTS,
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'COMPARE_INVALID_EXPECTED',
        message: expect.stringContaining('row 1 has 2 values'),
      }),
    );
  });

  it.each([
    [{ rtol: -1, atol: 0, decimals: 2 }, 'test.comparison.rtol is -1'],
    [{ rtol: 0, atol: Number.NaN, decimals: 2 }, 'test.comparison.atol is NaN'],
    [{ rtol: 0, atol: 0, decimals: 1.5 }, 'test.comparison.decimals is 1.5'],
    [{ rtol: 0, atol: 0, decimals: -1 }, 'test.comparison.decimals is -1'],
  ])('refuses tolerances %j', (tolerances, message) => {
    expect(() => compareResults({ actual: column(1), expected: column(1), tolerances })).toThrow(
      expect.objectContaining({
        code: 'COMPARE_INVALID_TOLERANCE',
        message: expect.stringContaining(message),
      }),
    );
  });

  it('refuses a negative diff limit', () => {
    expect(() => compareResults({ actual: column(1), expected: column(2), diffLimit: -1 })).toThrow(
      expect.objectContaining({ code: 'COMPARE_INVALID_DIFF_LIMIT' }),
    );
  });

  it('uses the documented defaults without tolerances', () => {
    expect(compareResults({ actual: column(1.234), expected: column(1.231) }).message).toBe('match');
    expect(compareResults({ actual: column(100001), expected: column(100000) }).message).toBe(
      'match (approximate)',
    );
  });
});

/**
 * Cases transcribed from public comparator test suites
 * (/work/shared/data/comparator-cases/transcribed_comparator_cases.json: defog-ai/sql-eval,
 * getnao/nao, opensource-observer/oso and an unidentified nl-to-sql suite), judged by nao's
 * rules. Where those suites decide otherwise, the comment says why nao differs.
 */
describe('transcribed public comparator cases', () => {
  const ab = (rows: CellValue[][], columns = ['A', 'B']) => table(columns, rows);
  const reference = ab([
    [1, 4],
    [2, 5],
    [3, 6],
  ]);
  const reference4 = ab([
    [1, 4],
    [2, 5],
    [3, 5],
    [4, 6],
  ]);
  it.each<[string, ResultData, ResultData, boolean, string, boolean?]>([
    ['defog_compare_df_1 both empty', ab([]), ab([]), true, 'both empty'],
    [
      'defog_compare_df_2 identical',
      reference,
      ab([
        [1, 4],
        [2, 5],
        [3, 6],
      ]),
      true,
      'match',
    ],
    [
      'defog_compare_df_3 one value differs',
      reference,
      ab([
        [1, 4],
        [2, 5],
        [3, 7],
      ]),
      false,
      'values differ',
    ],
    [
      'defog_compare_df_4 columns reordered',
      reference,
      ab(
        [
          [4, 1],
          [5, 2],
          [6, 3],
        ],
        ['B', 'A'],
      ),
      true,
      'match',
    ],
    // sql-eval ignores names; nao matches columns by exact name.
    [
      'defog_compare_df_5 other case',
      reference,
      ab(
        [
          [1, 4],
          [2, 5],
          [3, 6],
        ],
        ['a', 'b'],
      ),
      false,
      'missing columns: A, B',
    ],
    [
      'defog_compare_df_6 renamed',
      reference,
      ab(
        [
          [1, 4],
          [2, 5],
          [3, 6],
        ],
        ['C', 'D'],
      ),
      false,
      'missing columns: A, B',
    ],
    [
      'defog_compare_df_7 rows reordered',
      reference,
      ab([
        [2, 5],
        [1, 4],
        [3, 6],
      ]),
      true,
      'match',
    ],
    [
      'defog_compare_df_8 rows reordered, order required',
      reference,
      ab([
        [2, 5],
        [1, 4],
        [3, 6],
      ]),
      false,
      'values differ',
      true,
    ],
    [
      'defog_compare_df_9 renamed and reordered',
      reference,
      ab(
        [
          [2, 5],
          [1, 4],
          [3, 6],
        ],
        ['X', 'Y'],
      ),
      false,
      'missing columns: A, B',
    ],
    [
      'defog_compare_df_10 an extra column, renamed',
      reference,
      ab(
        [
          [2, 5, 7],
          [1, 4, 8],
          [3, 6, 9],
        ],
        ['X', 'Y', 'Z'],
      ),
      false,
      'missing columns: A, B',
    ],
    [
      'defog_compare_df_11 four rows reordered',
      reference4,
      ab([
        [2, 5],
        [1, 4],
        [4, 6],
        [3, 5],
      ]),
      true,
      'match',
    ],
    [
      'defog_compare_df_12 four rows reordered, order required',
      reference4,
      ab([
        [2, 5],
        [1, 4],
        [4, 6],
        [3, 5],
      ]),
      false,
      'values differ',
      true,
    ],
    [
      'defog_subset_df_10 extra column, same names',
      reference,
      ab(
        [
          [2, 5, 7],
          [1, 4, 8],
          [3, 6, 9],
        ],
        ['A', 'B', 'Z'],
      ),
      true,
      'match',
    ],
    [
      'nao rounds to two decimals',
      table(['value', 'label'], [[1.231, 'a']]),
      table(['value', 'label'], [[1.234, 'a']]),
      true,
      'match',
    ],
    ['oso exact match', [{ a: 1, b: 2 }], [{ a: 1, b: 2 }], true, 'match', true],
    ['oso exact mismatch', [{ a: 1, b: 2 }], [{ a: 1, b: 3 }], false, 'values differ', true],
    ['oso extra row', [{ col: 1 }], [{ col: 1 }, { col: 2 }], false, 'row count: 2 vs 1', true],
    // oso fails an extra column; nao ignores extra answer columns.
    ['oso extra column', [{ a: 1, b: 2 }], [{ a: 1, b: 2, c: 3 }], true, 'match', true],
    [
      'oso key order',
      [
        { y: 2, x: 1 },
        { y: 4, x: 3 },
      ],
      [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      true,
      'match',
    ],
    ['oso partial overlap', [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 3 }], false, 'values differ'],
    ['nl2sql identical', [{ a: 1, b: 2 }], [{ a: 1, b: 2 }], true, 'match'],
    ['nl2sql key order', [{ a: 1, b: 2 }], [{ b: 2, a: 1 }], true, 'match'],
    ['nl2sql different values', [{ a: 1 }], [{ a: 0 }], false, 'values differ'],
    [
      'nl2sql row count',
      [
        { customer_id: 'C123', payment_amount: 69.97 },
        { customer_id: 'C123', payment_amount: 47.97 },
      ],
      [
        { customer_id: 'C123', payment_amount: 69.97 },
        { customer_id: 'C123', payment_amount: 47.97 },
        { customer_id: 'C124', payment_amount: 125.5 },
      ],
      false,
      'row count: 3 vs 2',
    ],
    [
      'nl2sql extra columns ignored',
      [{ customer_id: 'C123', payment_amount: 69.97 }],
      [{ customer_id: 'C123', payment_amount: 69.97, extra_column: 'extra_value', another_extra: 123 }],
      true,
      'match',
    ],
    [
      'nl2sql extra columns over several rows',
      [
        { customer_id: 'C123', payment_amount: 69.97 },
        { customer_id: 'C124', payment_amount: 125.5 },
      ],
      [
        { customer_id: 'C123', payment_amount: 69.97, extra_col1: 'value1', extra_col2: 456 },
        { customer_id: 'C124', payment_amount: 125.5, extra_col3: 'value3' },
      ],
      true,
      'match',
    ],
    [
      'nl2sql extra column, value differs',
      [{ customer_id: 'C123', payment_amount: 69.97 }],
      [{ customer_id: 'C123', payment_amount: 70.0, extra_column: 'extra_value' }],
      false,
      'values differ',
    ],
    [
      'nl2sql missing expected column',
      [{ customer_id: 'C123', payment_amount: 69.97 }],
      [{ customer_id: 'C123', extra_column: 'extra_value' }],
      false,
      'missing columns: payment_amount',
    ],
  ])('%s', (_name, expected, actual, passed, message, ordered = false) => {
    const result = compareResults({ actual, expected, tolerances: DEFAULTS, ordered });
    expect({ passed: result.passed, message: result.message }).toEqual({ passed, message });
  });
});

describe('compareResults on generated data', () => {
  /** Values of every kind, including ones equal by meaning but written differently. */
  const POOL: CellValue[] = [
    null,
    true,
    false,
    0,
    -0,
    1,
    '1',
    1.5,
    '1.50',
    -2.675,
    1e21,
    '9223372036854775807',
    Number.NaN,
    'NaN',
    Infinity,
    '2024-01-02',
    '2024-01-02T00:00:00',
    '2024-01-02T01:00:00+01:00',
    '2024-01-02 00:00:00.000001',
    '',
    ' ',
    'a',
    'A',
    'Caf\u00e9',
    'Cafe\u0301',
    '12%',
    '$1,234.50',
    '1.234,5',
    '007',
    'NULL',
    'true',
  ];

  function randomTable(seed: number): CellValue[][] {
    let state = seed;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    const columns = 1 + Math.floor(next() * 4);
    const rows = 1 + Math.floor(next() * 60);
    return Array.from({ length: rows }, () =>
      Array.from({ length: columns }, () => POOL[Math.floor(next() * POOL.length)]!),
    );
  }

  it.each(Array.from({ length: 40 }, (_, seed) => seed + 1))(
    'seed %i: a shuffled copy matches, and a changed cell does not match exactly',
    (seed) => {
      const rows = randomTable(seed);
      const columns = rows[0]!.map((_, index) => `c${index}`);
      const expected = table(columns, rows);
      expect(
        compareResults({ actual: table(columns, shuffled(rows, seed)), expected, tolerances: DEFAULTS })
          .message,
      ).toBe('match');
      const changed = rows.map((row) => [...row]);
      changed[seed % rows.length]![0] = 'a value not in the pool';
      const result = compareResults({
        actual: table(columns, shuffled(changed, seed)),
        expected,
        tolerances: DEFAULTS,
      });
      expect(result.message).toBe('values differ');
      // Exactly one row on each side is explained: as a changed pair or as two one-sided rows.
      const counts = result.diff!.counts;
      expect([
        counts.mismatchedRows + counts.onlyInActual,
        counts.mismatchedRows + counts.onlyInExpected,
      ]).toEqual([1, 1]);
    },
  );

  it('never throws on values outside CellValue', () => {
    const odd = [
      new Date('2024-01-02T00:00:00Z'),
      new Date('nope'),
      { nested: [1] },
      [1, 2],
      5n,
      undefined,
      Symbol('s'),
    ];
    const rows = odd.map((value) => [value as never]);
    const result = compareResults({
      actual: column(...shuffled(rows, 3).map((row) => row[0]!)),
      expected: table(['v'], rows),
      tolerances: DEFAULTS,
    });
    expect(result.passed).toBe(true);
  });
});
