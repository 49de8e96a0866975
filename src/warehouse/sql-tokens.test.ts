import { describe, expect, it } from 'vitest';
import { SqlLexError, sqlReadings, sqlTokens } from './sql-tokens.js';

const words = (sql: string, dialect: 'postgres' | 'mysql', backslashEscapes = false) =>
  sqlTokens(sql, { dialect, backslashEscapes })
    .filter((token) => token.kind === 'word' || token.kind === 'quoted')
    .map((token) => token.text);

describe('sqlTokens (PostgreSQL)', () => {
  it.each<[string, string[]]>([
    ['SELECT PG_Read_File(x)', ['select', 'pg_read_file', 'x']],
    ['select "PG_READ_FILE"()', ['select', 'pg_read_file']],
    ['select pg_catalog . pg_ls_dir', ['select', 'pg_catalog', 'pg_ls_dir']],
    ["select 'pg_read_file' , x", ['select', 'x']],
    ["select E'it\\'s', x", ['select', 'x']],
    ['select $$ pg_read_file $$, x', ['select', 'x']],
    ['select $tag$ a $$ b $tag$, x', ['select', 'x']],
    ['select a$b$, x', ['select', 'a$b$', 'x']],
    ['select 1 -- pg_read_file\n, x', ['select', '1', 'x']],
    // Block comments nest in PostgreSQL: the quote inside stays in the comment.
    ["select /* a /* b */ ' */ x -- '", ['select', 'x']],
    ['select "a""b"', ['select', 'a"b']],
  ])('reads %j as the names %j', (sql, expected) => {
    expect(words(sql, 'postgres')).toEqual(expected);
  });

  it.each([
    ['select /* never closed', /unterminated \/\* comment/],
    ["select 'never closed", /unterminated ' quote/],
    ['select $a$ never closed', /unterminated \$a\$ quote/],
    ['select U&"\\0070g_read_file"()', /Unicode-escaped/],
  ])('cannot read %j', (sql, message) => {
    expect(() => sqlTokens(sql, { dialect: 'postgres', backslashEscapes: false })).toThrow(message);
  });

  it("reads '…' both ways when backslashes may escape, so neither reading hides a name", () => {
    const readings = sqlReadings("select '\\', pg_read_file('x') -- '", 'postgres');
    expect(
      readings.map((tokens) => tokens.filter((token) => token.kind === 'word').map((t) => t.text)),
    ).toEqual([
      ['select', 'x'],
      ['select', 'pg_read_file'],
    ]);
  });

  it('throws a SqlLexError marked as unreadable either way for a Unicode-escaped name', () => {
    expect(() => sqlReadings('select U&"x"', 'postgres')).toThrow(SqlLexError);
  });
});

describe('sqlTokens (MySQL)', () => {
  it.each<[string, string[]]>([
    ['SELECT LOAD_FILE(x)', ['select', 'load_file', 'x']],
    ['select `load_file`(x)', ['select', 'load_file', 'x']],
    ['select "x"', ['select', 'x']],
    ["select 'a\\'b', c", ['select', 'c']],
    ['select 1 # load_file\n, c', ['select', '1', 'c']],
    ['select 1 -- load_file\n, c', ['select', '1', 'c']],
    // "--" without a space is two minus signs in MySQL.
    ['select 1 --c', ['select', '1', 'c']],
    ['select /* a /* b */ c', ['select', 'c']],
  ])('reads %j as the names %j', (sql, expected) => {
    expect(words(sql, 'mysql', true)).toEqual(expected);
  });

  it.each(['select /*! load_file(1) */', 'select /*M!100000 load_file(1) */'])(
    'refuses the executable comment of %j',
    (sql) => {
      expect(() => sqlReadings(sql, 'mysql')).toThrow(/executable comment/);
    },
  );
});
