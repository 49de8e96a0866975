import { describe, expect, it } from 'vitest';
import { formatSql } from './format-sql.js';

/** The query without any whitespace: formatting must never change anything else. */
function squeeze(sql: string): string {
  return sql.replace(/\s+/g, '');
}

describe('formatSql', () => {
  it('puts each clause on its own line and the select list one item per line', () => {
    const sql =
      "select c.customer_id, sum(p.amount) as revenue from payments p join customers c on c.customer_id = p.customer_id where p.status <> 'returned' and p.amount > 0 group by c.customer_id order by revenue desc limit 5";
    expect(formatSql(sql)).toBe(
      [
        'select',
        '  c.customer_id,',
        '  sum(p.amount) as revenue',
        'from',
        '  payments p',
        '  join customers c on c.customer_id = p.customer_id',
        'where',
        "  p.status <> 'returned'",
        '  and p.amount > 0',
        'group by',
        '  c.customer_id',
        'order by',
        '  revenue desc',
        'limit',
        '  5',
      ].join('\n'),
    );
  });

  it('keeps a DuckDB list, struct and lambda on one line', () => {
    expect(formatSql('SELECT [1,2,3] AS l')).toBe('SELECT\n  [1, 2, 3] AS l');
    expect(formatSql("SELECT {'a': 1} AS s, list_transform(l, x -> x + 1) AS m FROM t")).toBe(
      ['SELECT', "  {'a': 1} AS s,", '  list_transform(l, x -> x + 1) AS m', 'FROM', '  t'].join('\n'),
    );
  });

  it('changes only whitespace: keyword case, strings, quoted names and comments stay', () => {
    const sql = `SeLeCt 'a  FROM  b', "x  y", $$ WHERE  $$ /* keep  this */ FROM t -- trailing  note
WHERE a = 1`;
    const formatted = formatSql(sql);
    expect(formatted).toContain('SeLeCt');
    expect(formatted).toContain("'a  FROM  b'");
    expect(formatted).toContain('"x  y"');
    expect(formatted).toContain('$$ WHERE  $$');
    expect(formatted).toContain('/* keep  this */');
    expect(formatted).toContain('-- trailing  note\nWHERE');
    expect(squeeze(formatted)).toBe(squeeze(sql));
  });

  it.each([
    ['an unterminated string', "SELECT 'unterminated"],
    ['unclosed parentheses', 'SELECT (((1'],
    ['stray closing parentheses', ')) garbage ;; FROM FROM'],
    ["another warehouse's quoting", 'SELECT `order` FROM t'],
    ['surrounding whitespace', '  SELECT (  \n'],
  ])('returns SQL it cannot parse exactly as written: %s', (_label, sql) => {
    expect(formatSql(sql)).toBe(sql);
  });

  it('returns absurdly deep nesting as written instead of throwing', () => {
    const sql = `SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(formatSql(sql)).toBe(sql);
  });

  it('formats already formatted SQL to the same text', () => {
    const once = formatSql(
      'SELECT a, b FROM t JOIN u ON t.id = u.id WHERE a > 1 AND b < 2 ORDER BY a LIMIT 3',
    );
    expect(formatSql(once)).toBe(once);
  });
});
