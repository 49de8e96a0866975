import { describe, expect, it } from 'vitest';
import { trinoCellConverter } from './trino-value.js';

describe('trinoCellConverter', () => {
  it.each([
    ['bigint', '9007199254740993', '9007199254740993'],
    ['bigint', 42, 42],
    ['decimal(5,2)', '12.50', '12.50'],
    ['double', 'NaN', 'NaN'],
    ['double', '-Infinity', '-Infinity'],
    ['real', 0.10000000149011612, 0.1],
    ['boolean', false, false],
    ['varbinary', 'YWIA/w==', '\\x616200ff'],
    ['timestamp(6)', '2024-01-02 03:04:05.500000', '2024-01-02T03:04:05.500000'],
    ['timestamp(3)', '2024-01-02 03:04:05.000', '2024-01-02T03:04:05'],
    ['timestamp(6) with time zone', '2024-01-02 03:04:05.123456 +02:00', '2024-01-02T01:04:05.123456Z'],
    ['timestamp(3) with time zone', '2024-01-02 03:04:05.120 UTC', '2024-01-02T03:04:05.120Z'],
    ['timestamp(0) with time zone', '2024-07-01 12:00:00 Europe/Paris', '2024-07-01T10:00:00Z'],
    ['timestamp(0) with time zone', '2024-01-01 12:00:00 Europe/Paris', '2024-01-01T11:00:00Z'],
    ['array(integer)', [1, null], '[1,null]'],
    ['date', '2024-01-02', '2024-01-02'],
    ['integer', null, null],
  ])('%s %j → %j', (type, value, expected) => {
    expect(trinoCellConverter(type)(value)).toEqual(expected);
  });
});
