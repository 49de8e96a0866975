/**
 * The conformance values in Trino's SQL, which Athena speaks too; only the type names the two
 * report differ (Athena says `float` for real and `timestamp` without its precision).
 */
import type { EngineSql } from './engine.js';

export function trinoSqlValues(names: { real: string; timestamp: string }): EngineSql['values'] {
  return {
    'small integer': { expression: '42', type: 'integer' },
    'integer 2^53+1': { expression: "CAST('9007199254740993' AS bigint)", type: 'bigint' },
    'smallest 64-bit integer': { expression: "CAST('-9223372036854775808' AS bigint)", type: 'bigint' },
    'DECIMAL(38,10)': {
      expression: "CAST('1234567890123456789012345678.0123456789' AS decimal(38,10))",
      type: 'decimal(38,10)',
    },
    'decimal keeping its scale': { expression: "CAST('12.50' AS decimal(5,2))", type: 'decimal(5,2)' },
    'double 0.1': { expression: 'CAST(0.1 AS double)', type: 'double' },
    'single-precision 0.1': { expression: 'CAST(0.1 AS real)', type: names.real },
    NaN: { expression: "CAST('NaN' AS double)", type: 'double' },
    Infinity: { expression: "CAST('Infinity' AS double)", type: 'double' },
    '-Infinity': { expression: "CAST('-Infinity' AS double)", type: 'double' },
    'NULL of a typed column': { expression: 'CAST(NULL AS integer)', type: 'integer' },
    'text with accents and emoji': { expression: "CAST('héllo 😀' AS varchar)", type: 'varchar' },
    true: { expression: 'true', type: 'boolean' },
    false: { expression: 'false', type: 'boolean' },
    date: { expression: "DATE '2024-01-02'", type: 'date' },
    'timestamp to the microsecond': {
      expression: "CAST('2024-01-02 03:04:05.123456' AS timestamp(6))",
      type: names.timestamp,
    },
    'timestamp on a whole second': {
      expression: "CAST('2024-01-02 03:04:05' AS timestamp(6))",
      type: names.timestamp,
    },
    'timestamp on half a second': {
      expression: "CAST('2024-01-02 03:04:05.5' AS timestamp(6))",
      type: names.timestamp,
    },
    'timestamp with time zone (+02) in UTC': {
      expression: "CAST('2024-01-02 03:04:05.123456+02:00' AS timestamp(6) with time zone)",
      type: `${names.timestamp} with time zone`,
    },
    'binary 61 62 00 ff': { expression: "from_hex('616200ff')", type: 'varbinary' },
  };
}
