import { describe, expect, it } from 'vitest';
import { readTsv, StreamedServerError, type TsvHeader, unescapeField } from './clickhouse-tsv.js';

async function* chunks(...parts: string[]): AsyncIterable<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

async function readAll(parts: string[], maxRows = Number.POSITIVE_INFINITY) {
  let header: TsvHeader | undefined;
  const rows: string[][] = [];
  await readTsv({
    stream: chunks(...parts),
    onHeader: (received) => {
      header = received;
    },
    onRow: (fields) => {
      if (rows.length >= maxRows) return false;
      rows.push(fields.map((field) => field.toString('utf8')));
      return true;
    },
  });
  return { header, rows };
}

describe('readTsv', () => {
  it('reads names, types and rows split anywhere across chunks', async () => {
    const result = await readAll(['a\tb\nInt32\tNullable(Str', 'ing)\n1\tx\n2\t\\N\n', '3\t', 'y\n']);
    expect(result.header).toEqual({ names: ['a', 'b'], types: ['Int32', 'Nullable(String)'] });
    expect(result.rows).toEqual([
      ['1', 'x'],
      ['2', '\\N'],
      ['3', 'y'],
    ]);
  });

  it('stops reading when asked, leaving the rest unread', async () => {
    const result = await readAll(['n\nUInt64\n0\n1\n2\n3\n'], 2);
    expect(result.rows).toEqual([['0'], ['1']]);
  });

  it('gives no header for a statement without a result', async () => {
    expect(await readAll([])).toEqual({ header: undefined, rows: [] });
  });

  it('turns an exception the server appended after some rows into an error with its code', async () => {
    const failing = readAll([
      'n\nUInt64\n0\n',
      'Code: 159, e.displayText() = DB::Exception: Timeout exceeded: elapsed 1.0 seconds, e.what() = DB::Exception\n',
    ]);
    await expect(failing).rejects.toBeInstanceOf(StreamedServerError);
    await expect(failing).rejects.toMatchObject({ code: '159' });
  });
});

describe('unescapeField', () => {
  it.each([
    ['a\\tb', 'a\tb'],
    ['line\\nbreak', 'line\nbreak'],
    ['back\\\\slash', 'back\\slash'],
    ["quote\\'", "quote'"],
    ['nul\\0', 'nul\u0000'],
    ['plain', 'plain'],
  ])('%j → %j', (escaped, expected) => {
    expect(unescapeField(Buffer.from(escaped))?.toString('utf8')).toBe(expected);
  });

  it('reads \\N alone as NULL, and as text inside a value', () => {
    expect(unescapeField(Buffer.from('\\N'))).toBeNull();
    expect(unescapeField(Buffer.from('a\\N'))?.toString('utf8')).toBe('aN');
  });
});
