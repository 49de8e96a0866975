/**
 * A small typed table's rows as one `VALUES` list of DuckDB literals, so the sandbox can
 * create and fill it in the same statement.
 *
 * Why: the appender's flush runs synchronously on the event loop (0.5–0.9 ms for one row,
 * measured in a busy suite), and opening the appender is one more round trip. A large suite's
 * event loop is the harness's bottleneck; a statement runs on the thread pool.
 *
 * Each literal stands for exactly the value column-writers.ts would write: the same
 * column-types.ts conversions, then a spelling DuckDB reads back bit for bit. Integers are
 * digits; decimals are digits cast from a string (a bare literal of more than 38 digits would
 * be a DOUBLE); doubles are their shortest round-trip text cast from a string; dates are days
 * after the epoch; timestamps are microseconds. A value that does not convert, which for a
 * promised type means the declared type lied, sends the whole table the appender's way, which
 * owns that case.
 */
import { quoteLiteral } from '../warehouse/duckdb/index.js';
import {
  doubleValue,
  type LoadType,
  parseDate,
  parseTimestamp,
  parseTimestampTz,
  scaledDecimal,
  sqlType,
} from './column-types.js';

/**
 * Values of one table at most. DuckDB binds a `VALUES` list at about 15 µs a value, so past
 * some 60 values literals cost more CPU in all than the appender, if less on the event loop
 * (measured: 60 values 1.9 ms against 2.1 ms; 300 values 6.9 ms against 1.6 ms).
 */
export const LITERAL_MAX_CELLS = 64;
/** Characters of one table's `VALUES` text at most (long text values). */
export const LITERAL_MAX_LENGTH = 16 * 1024;

export interface LiteralColumn {
  type: LoadType;
  /** The declared type, unchecked: a value it does not take means the appender's way. */
  promised: boolean;
}

const TWO_63 = 2n ** 63n;
const TWO_127 = 2n ** 127n;

/**
 * `VALUES (…), (…)` for `rows` in the column order of `columns`, or `null` when the table is
 * empty, too large, or holds a value without an exact literal here.
 */
export function valuesList(options: {
  columns: readonly LiteralColumn[];
  rows: readonly (readonly unknown[])[];
}): string | null {
  const { columns, rows } = options;
  if (rows.length === 0 || columns.length === 0 || rows.length * columns.length > LITERAL_MAX_CELLS) {
    return null;
  }
  const spell = columns.map((column) => literalSpeller(column));
  let text = 'VALUES ';
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    text += r === 0 ? '(' : ', (';
    for (let c = 0; c < columns.length; c++) {
      const literal = spell[c]!(row[c]);
      if (literal === null) return null;
      text += c === 0 ? literal : `, ${literal}`;
    }
    text += ')';
    if (text.length > LITERAL_MAX_LENGTH) return null;
  }
  return text;
}

/** One column's literal for a value, or `null` when there is no exact one. */
type Speller = (value: unknown) => string | null;

function literalSpeller(column: LiteralColumn): Speller {
  const { type, promised } = column;
  const nullable =
    (spell: (value: unknown) => string | null): Speller =>
    (value) => {
      if (value === null || value === undefined) return 'NULL';
      try {
        return spell(value);
      } catch {
        // A conversion that throws is left for the appender to meet (and report) itself.
        return null;
      }
    };
  switch (type.kind) {
    case 'BOOLEAN':
      return nullable((value) => (typeof value === 'boolean' ? String(value) : null));
    case 'INTEGER':
      // The appender stores into an Int32Array: ToInt32 of the value.
      return nullable((value) => String(Number(value) | 0));
    case 'BIGINT':
      return nullable((value) => integerLiteral(value, TWO_63));
    case 'HUGEINT':
      return nullable((value) => integerLiteral(value, TWO_127));
    case 'DOUBLE':
      return nullable((value) => {
        const float =
          typeof value === 'number'
            ? value
            : typeof value === 'string' || typeof value === 'boolean'
              ? doubleValue(value)
              : undefined;
        return float === undefined ? null : doubleLiteral(float);
      });
    case 'DECIMAL': {
      const { scale } = type;
      const target = sqlType(type);
      return nullable((value) =>
        typeof value === 'number' || typeof value === 'string'
          ? `'${decimalText(scaledDecimal(value, scale), scale)}'::${target}`
          : null,
      );
    }
    case 'DATE':
      return nullable((value) => {
        const day = typeof value === 'string' ? parseDate(value) : null;
        return day === null ? null : `(DATE '1970-01-01' + ${day})`;
      });
    case 'TIMESTAMP':
      return nullable((value) => {
        const micros = typeof value === 'string' ? parseTimestamp(value) : null;
        return micros === null ? null : `make_timestamp(${micros}::BIGINT)`;
      });
    case 'TIMESTAMPTZ':
      // make_timestamptz(µs) reads epoch microseconds whatever the session's time zone.
      return nullable((value) => {
        const micros = typeof value === 'string' ? parseTimestampTz(value) : null;
        return micros === null ? null : `make_timestamptz(${micros}::BIGINT)`;
      });
    case 'VARCHAR':
      return nullable((value) => {
        if (typeof value !== 'string' && promised) return null;
        const text = typeof value === 'string' ? value : String(value);
        // A SQL string literal cannot hold NUL; the appender can.
        return text.includes('\0') ? null : quoteLiteral(text);
      });
  }
}

/** An integer (number, BigInt or integer text) within ±`limit`, in digits. */
function integerLiteral(value: unknown, limit: bigint): string | null {
  let integer: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return null;
    integer = BigInt(value);
  } else if (typeof value === 'bigint') {
    integer = value;
  } else if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    integer = BigInt(value);
  } else {
    return null;
  }
  return integer >= -limit && integer < limit ? integer.toString() : null;
}

/**
 * A double through its shortest round-trip text, cast from a string: DuckDB reads a bare
 * `0.1` as a DECIMAL, and a string cast parses to the nearest double, the one JavaScript had.
 */
function doubleLiteral(float: number): string {
  if (Number.isNaN(float)) return `'NaN'::DOUBLE`;
  if (Object.is(float, -0)) return `'-0.0'::DOUBLE`;
  return `'${String(float)}'::DOUBLE`;
}

/** The unscaled integer of a DECIMAL as its digits with the point put back. */
export function decimalText(unscaled: number | bigint, scale: number): string {
  const negative = unscaled < 0;
  const digits = (negative ? -BigInt(unscaled) : BigInt(unscaled)).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
