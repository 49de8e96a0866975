import { describe, expect, it } from 'vitest';
import type { CellValue } from '../database.js';
import { type MysqlField, mysqlCellConverter, mysqlTypeName } from './mysql-value.js';

const field = (columnType: number, extra: Partial<MysqlField> = {}): MysqlField => ({
  name: 'v',
  columnType,
  flags: 0,
  decimals: 0,
  characterSet: 224,
  ...extra,
});

describe('mysqlTypeName', () => {
  it.each<[MysqlField, string]>([
    [field(8), 'BIGINT'],
    [field(8, { flags: 32 }), 'BIGINT UNSIGNED'],
    [field(246, { columnLength: 40, decimals: 10 }), 'DECIMAL(38,10)'],
    [field(246, { columnLength: 7, decimals: 2 }), 'DECIMAL(5,2)'],
    [field(246, { columnLength: 5, decimals: 0 }), 'DECIMAL(4,0)'],
    [field(246, { columnLength: 6, decimals: 2, flags: 32 }), 'DECIMAL(5,2)'],
    [field(12, { decimals: 6 }), 'DATETIME(6)'],
    [field(12), 'DATETIME'],
    [field(7, { decimals: 3 }), 'TIMESTAMP(3)'],
    [field(5, { decimals: 31 }), 'DOUBLE'],
    [field(253, { characterSet: 63 }), 'VARBINARY'],
    [field(253), 'VARCHAR'],
    [field(252, { characterSet: 63 }), 'BLOB'],
    [field(252), 'TEXT'],
    [field(254, { flags: 256 }), 'ENUM'],
    [field(254, { flags: 2048 }), 'SET'],
    [field(254), 'CHAR'],
    [field(999), 'TYPE 999'],
  ])('%j → %s', (metadata, expected) => {
    expect(mysqlTypeName(metadata)).toBe(expected);
  });
});

describe('mysqlCellConverter', () => {
  it.each<[MysqlField, unknown, CellValue]>([
    [field(8), '42', 42],
    [field(8), '9223372036854775807', '9223372036854775807'],
    [field(8, { flags: 32 }), '18446744073709551615', '18446744073709551615'],
    [field(3), 7, 7],
    [field(246), '12.50', '12.50'],
    [field(5), 0.1, 0.1],
    [field(12), '2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456'],
    [field(12), '2024-01-02 03:04:05.500000', '2024-01-02T03:04:05.500000'],
    [field(12), '0000-00-00 00:00:00', '0000-00-00 00:00:00'],
    [field(10), '2024-01-02', '2024-01-02'],
    [field(16), Buffer.from([0x05]), 5],
    [field(16), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), '18446744073709551615'],
    [field(253, { characterSet: 63 }), Buffer.from('ab'), '\\x6162'],
    [field(255), { x: 1, y: 2 }, '{"x":1,"y":2}'],
    [field(3), null, null],
  ])('%j reads %j as %j', (metadata, value, expected) => {
    expect(mysqlCellConverter(metadata)(value)).toEqual(expected);
  });
});
