import { describe, expect, it } from 'vitest';
import { athenaCellConverter, athenaTypeName } from './athena-value.js';

describe('athenaCellConverter', () => {
  it.each([
    [{ Type: 'bigint' }, '9007199254740993', '9007199254740993'],
    [{ Type: 'integer' }, '42', 42],
    [{ Type: 'decimal', Precision: 5, Scale: 2 }, '12.50', '12.50'],
    [{ Type: 'double' }, 'NaN', 'NaN'],
    [{ Type: 'double' }, '0.1', 0.1],
    [{ Type: 'float' }, '0.1', 0.1],
    [{ Type: 'boolean' }, 'false', false],
    [{ Type: 'varbinary' }, '61 62 00 ff', '\\x616200ff'],
    [{ Type: 'timestamp', Precision: 3 }, '2024-01-02 03:04:05.500', '2024-01-02T03:04:05.500'],
    [{ Type: 'timestamp', Precision: 0 }, '2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456'],
    [
      { Type: 'timestamp with time zone', Precision: 3 },
      '2024-01-02 03:04:05.120 Europe/Paris',
      '2024-01-02T02:04:05.120Z',
    ],
    [{ Type: 'array' }, '[1, 2]', '[1, 2]'],
    [{ Type: 'integer' }, undefined, null],
  ])('%j %j → %j', (column, text, expected) => {
    expect(athenaCellConverter(column)(text)).toEqual(expected);
  });

  it('names a decimal with its precision and scale', () => {
    expect(athenaTypeName({ Type: 'decimal', Precision: 38, Scale: 10 })).toBe('decimal(38,10)');
    expect(athenaTypeName({ Type: 'varchar', Precision: 2147483647 })).toBe('varchar');
  });
});
