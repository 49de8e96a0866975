import { describe, expect, it } from 'vitest';
import { baseType, clickHouseCellConverter, zonedToUtc } from './clickhouse-value.js';

const read = (type: string, text: string | Buffer) =>
  clickHouseCellConverter(type)(typeof text === 'string' ? Buffer.from(text) : text);

describe('clickHouseCellConverter', () => {
  it.each<[string, string, unknown]>([
    ['Int32', '-42', -42],
    ['UInt8', '255', 255],
    ['UInt64', '18446744073709551615', '18446744073709551615'],
    ['UInt64', '42', 42],
    ['Int128', '-170141183460469231731687303715884105728', '-170141183460469231731687303715884105728'],
    ['UInt256', '1', 1],
    ['Decimal(38, 10)', '1234567890123456789012345678.0123456789', '1234567890123456789012345678.0123456789'],
    ['Decimal(9, 2)', '12.50', '12.50'],
    ['Float64', '0.1', 0.1],
    ['Float32', '0.1', 0.1],
    ['Float64', 'nan', 'NaN'],
    ['Float64', 'inf', 'Infinity'],
    ['Float32', '-inf', '-Infinity'],
    ['Bool', 'true', true],
    ['Bool', 'false', false],
    ['Date', '2024-01-02', '2024-01-02'],
    ['DateTime', '2024-01-02 03:04:05', '2024-01-02T03:04:05'],
    ['DateTime64(6)', '2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456'],
    ['DateTime64(6)', '2024-01-02 03:04:05.500000', '2024-01-02T03:04:05.500000'],
    ['DateTime64(3)', '2024-01-02 03:04:05.000', '2024-01-02T03:04:05'],
    ["DateTime64(6, 'Etc/GMT-2')", '2024-01-02 03:04:05.123456', '2024-01-02T01:04:05.123456Z'],
    ["DateTime('Europe/Berlin')", '2024-07-01 12:00:00', '2024-07-01T10:00:00Z'],
    ["DateTime('UTC')", '2024-01-02 03:04:05', '2024-01-02T03:04:05Z'],
    ['Nullable(Int64)', '9007199254740993', '9007199254740993'],
    ['LowCardinality(Nullable(String))', 'héllo', 'héllo'],
    ['String', 'héllo 😀', 'héllo 😀'],
    ['UUID', '61f0c404-5cb3-11e7-907b-a6006ad3dba0', '61f0c404-5cb3-11e7-907b-a6006ad3dba0'],
    ['Array(String)', "['a','b']", '["a","b"]'],
    ['Array(Nullable(String))', "['a\\'b','c\\td',NULL]", '["a\'b","c\\td",null]'],
    ['Array(Array(UInt8))', '[[1,2],[3]]', '[[1,2],[3]]'],
    ['Array(Tuple(UInt8, String))', "[(1,'x')]", '[[1,"x"]]'],
    ['Tuple(UInt64, Decimal(9, 2))', '(18446744073709551615,1.50)', '[18446744073709551615,1.50]'],
    ['Array(Float64)', '[nan,inf,-inf,0.1]', '["NaN","Infinity","-Infinity",0.1]'],
    ['Array(Date)', "['2024-01-02']", '["2024-01-02"]'],
    ['Array(UUID)', "['61f0c404-5cb3-11e7-907b-a6006ad3dba0']", '["61f0c404-5cb3-11e7-907b-a6006ad3dba0"]'],
    ['Map(String, UInt8)', "{'a':1}", "{'a':1}"],
    ['String', 'tab\\there', 'tab\there'],
    ['Nullable(Int32)', '\\N', null],
  ])('%s %j → %j', (type, text, expected) => {
    expect(read(type, text)).toEqual(expected);
  });

  it('gives a String that is not UTF-8 as hex, a FixedString with its padding', () => {
    expect(read('String', Buffer.from([0x61, 0x62, 0x00, 0xff]))).toBe('\\x616200ff');
    expect(read('FixedString(3)', Buffer.from([0x61, 0x62, 0x00]))).toBe('ab\u0000');
  });

  it('reads the NULL type as null', () => {
    expect(read('Nullable(Nothing)', '')).toBeNull();
  });
});

describe('zonedToUtc', () => {
  it('uses the offset in force at the instant, across a DST change', () => {
    expect(zonedToUtc('2024-03-31 01:30:00', 'Europe/Berlin', 0)).toBe('2024-03-31T00:30:00Z');
    expect(zonedToUtc('2024-03-31 03:30:00', 'Europe/Berlin', 0)).toBe('2024-03-31T01:30:00Z');
    expect(zonedToUtc('2024-01-01 00:00:00', 'America/New_York', 0)).toBe('2024-01-01T05:00:00Z');
  });

  it('keeps text it cannot read, or of a zone it does not know', () => {
    expect(zonedToUtc('0000-00-00 00:00:00', 'UTC', 0)).toBe('0000-00-00 00:00:00');
    expect(zonedToUtc('2024-01-02 03:04:05', 'No/Such_Zone', 0)).toBe('2024-01-02 03:04:05');
  });

  it('strips the wrappers that do not change a value', () => {
    expect(baseType('LowCardinality(Nullable(String))')).toBe('String');
  });
});
