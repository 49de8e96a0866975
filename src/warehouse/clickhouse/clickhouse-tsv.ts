/**
 * Reads ClickHouse's `TabSeparatedWithNamesAndTypes` output as it streams in: a line of names,
 * a line of types, then one line per row. Row fields are handed on raw, as bytes (a String may
 * be binary): a scalar is unescaped with `unescapeField` (`\t`, `\n`, `\\`, `\0`…, `\N` for
 * NULL), while an array or tuple is ClickHouse's literal text, its strings quoted and escaped
 * once. A raw newline always ends a row, since one inside a value is escaped.
 */

const TAB = 0x09;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;

const ESCAPES: Record<number, number> = {
  98: 0x08, // \b
  102: 0x0c, // \f
  114: 0x0d, // \r
  110: 0x0a, // \n
  116: 0x09, // \t
  48: 0x00, // \0
  97: 0x07, // \a
  118: 0x0b, // \v
};

/** One field's bytes without its escapes; null for `\N`. */
export function unescapeField(field: Buffer): Buffer | null {
  if (field.length === 2 && field[0] === BACKSLASH && field[1] === 0x4e) return null;
  if (!field.includes(BACKSLASH)) return field;
  const out = Buffer.allocUnsafe(field.length);
  let length = 0;
  for (let index = 0; index < field.length; index++) {
    const byte = field[index]!;
    if (byte === BACKSLASH && index + 1 < field.length) {
      const next = field[++index]!;
      out[length++] = ESCAPES[next] ?? next;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

function splitFields(line: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  for (let index = line.indexOf(TAB); index !== -1; index = line.indexOf(TAB, start)) {
    fields.push(line.subarray(start, index));
    start = index + 1;
  }
  fields.push(line.subarray(start));
  return fields;
}

// ClickHouse appends its exception to a response whose first rows were already sent (HTTP 200).
const EXCEPTION_LINE = /^Code: (\d+)[.,] (?:e\.displayText\(\) = )?DB::Exception/;

/** The error ClickHouse wrote into a stream it had started, with its numeric code as the client gives it. */
export class StreamedServerError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface TsvHeader {
  names: string[];
  types: string[];
}

/**
 * Splits a byte stream into its header and its rows. `onRow` returns false to stop reading:
 * the caller then destroys the stream. Resolves with the header (empty for a statement
 * without result) when the stream ends or was stopped.
 */
export async function readTsv(options: {
  stream: AsyncIterable<Buffer>;
  onHeader: (header: TsvHeader) => void;
  onRow: (fields: Buffer[]) => boolean;
}): Promise<void> {
  const lines: Buffer[] = [];
  let names: string[] | undefined;
  let header: TsvHeader | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let stopped = false;
  const take = (line: Buffer): boolean => {
    if (names === undefined) {
      names = splitFields(line).map((field) => (unescapeField(field) ?? Buffer.alloc(0)).toString('utf8'));
      return true;
    }
    if (header === undefined) {
      const types = splitFields(line).map((field) =>
        (unescapeField(field) ?? Buffer.alloc(0)).toString('utf8'),
      );
      header = { names, types };
      options.onHeader(header);
      return true;
    }
    if (line[0] === 0x43) throwIfException(line);
    return options.onRow(splitFields(line));
  };
  for await (const chunk of options.stream) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let index = pending.indexOf(NEWLINE); index !== -1; index = pending.indexOf(NEWLINE, start)) {
      lines.push(pending.subarray(start, index));
      start = index + 1;
    }
    pending = pending.subarray(start);
    for (const line of lines.splice(0)) {
      if (!take(line)) {
        stopped = true;
        break;
      }
    }
    if (stopped) return;
  }
  if (pending.length > 0) {
    throwIfException(pending);
    take(pending);
  }
}

/** A line 'Code: 159, e.displayText() = DB::Exception: …' is the server's error, not a row ('C' starts it). */
function throwIfException(line: Buffer): void {
  const text = line.toString('utf8');
  const exception = EXCEPTION_LINE.exec(text);
  if (exception !== null) throw new StreamedServerError(text.trim(), exception[1]!);
}
