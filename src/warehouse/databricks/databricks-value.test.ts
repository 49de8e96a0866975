import { describe, expect, it } from 'vitest';
import { databricksCellConverter, databricksTypeName, TYPE_IDS } from './databricks-value.js';

describe('databricksCellConverter', () => {
  it.each([
    ['BIGINT beyond 2^53', TYPE_IDS.BIGINT, 9007199254740993n, '9007199254740993'],
    ['BIGINT that fits', TYPE_IDS.BIGINT, 42n, 42],
    ['INT', TYPE_IDS.INT, 7, 7],
    ['DECIMAL text', TYPE_IDS.DECIMAL, '12.50', '12.50'],
    ['FLOAT widened by the driver', TYPE_IDS.FLOAT, Math.fround(0.1), 0.1],
    ['DOUBLE NaN', TYPE_IDS.DOUBLE, Number.NaN, 'NaN'],
    ['DATE as a Date', TYPE_IDS.DATE, new Date(Date.UTC(2024, 0, 2)), '2024-01-02'],
    ['DATE as milliseconds', TYPE_IDS.DATE, Date.UTC(2024, 0, 2), '2024-01-02'],
    ['TIMESTAMP text in UTC', TYPE_IDS.TIMESTAMP, '2024-01-02 01:04:05.5', '2024-01-02T01:04:05.500000Z'],
    ['TIMESTAMP on a whole second', TYPE_IDS.TIMESTAMP, '2024-01-02 01:04:05', '2024-01-02T01:04:05Z'],
    ['TIMESTAMP ISO cannot spell', TYPE_IDS.TIMESTAMP, '-0044-03-15 12:00:00', '-0044-03-15 12:00:00'],
    ['BINARY', TYPE_IDS.BINARY, Buffer.from([0x61, 0x62, 0x00, 0xff]), '\\x616200ff'],
    ['ARRAY parsed by the driver', TYPE_IDS.ARRAY, [1n, 2.5, null], '[1,2.5,null]'],
    ['STRUCT parsed by the driver', TYPE_IDS.STRUCT, { a: 9007199254740993n }, '{"a":"9007199254740993"}'],
    ['INTERVAL text', TYPE_IDS.INTERVAL_DAY_TIME, '1 02:03:04.000000000', '1 02:03:04.000000000'],
    ['NULL', TYPE_IDS.STRING, null, null],
  ])('%s', (_label, typeId, value, expected) => {
    expect(databricksCellConverter(typeId)(value)).toEqual(expected);
  });
});

describe('databricksTypeName', () => {
  it.each([
    [TYPE_IDS.DECIMAL, 38, 10, 'DECIMAL(38,10)'],
    [TYPE_IDS.INT, undefined, undefined, 'INT'],
    [TYPE_IDS.STRING, undefined, undefined, 'STRING'],
    [TYPE_IDS.NULL, undefined, undefined, 'VOID'],
    [TYPE_IDS.INTERVAL_YEAR_MONTH, undefined, undefined, 'INTERVAL YEAR TO MONTH'],
  ])('type id %i (%s, %s) is %s', (typeId, precision, scale, name) => {
    expect(databricksTypeName(typeId, precision, scale)).toBe(name);
  });
});
