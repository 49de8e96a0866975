import { describe, expect, it } from 'vitest';
import { columnHint } from './column-type.js';

describe('columnHint', () => {
  it.each([
    ['BIGINT', 'number'],
    ['integer', 'number'],
    ['DECIMAL(38,10)', 'number'],
    ['numeric', 'number'],
    ['double precision', 'number'],
    ['HUGEINT', 'number'],
    ['UBIGINT', 'number'],
    ['FLOAT8', 'number'],
    ['DATE', 'temporal'],
    ['timestamp with time zone', 'temporal'],
    ['TIMESTAMP_NS', 'temporal'],
    ['datetime', 'temporal'],
    ['TIME', 'unknown'],
    ['INTERVAL', 'unknown'],
    ['VARCHAR', 'unknown'],
    ['INTERVAL DAY', 'unknown'],
    ['POINT', 'unknown'],
    [undefined, 'unknown'],
  ])('%s is %s', (type, hint) => {
    expect(columnHint(type)).toBe(hint);
  });
});
