import { describe, expect, it } from 'vitest';
import { formatSql } from './format-sql.js';

/** The query without any whitespace: formatting must never change anything else. */
function squeeze(sql: string): string {
  return sql.replace(/\s+/g, '');
}

describe('formatSql', () => {
  it('puts each major clause on its own line and the select list one item per line', () => {
    const sql =
      "select c.customer_id, c.first_name, sum(p.amount) as revenue from payments p join orders o on o.order_id = p.order_id left outer join customers c on c.customer_id = o.customer_id where o.status <> 'returned' group by c.customer_id, c.first_name having sum(p.amount) > 10 order by revenue desc limit 5";
    expect(formatSql(sql)).toBe(
      [
        'select',
        '  c.customer_id,',
        '  c.first_name,',
        '  sum(p.amount) as revenue',
        'from payments p',
        'join orders o on o.order_id = p.order_id',
        'left outer join customers c on c.customer_id = o.customer_id',
        "where o.status <> 'returned'",
        'group by c.customer_id, c.first_name',
        'having sum(p.amount) > 10',
        'order by revenue desc',
        'limit 5',
      ].join('\n'),
    );
  });

  it('keeps a single select item on the SELECT line', () => {
    expect(formatSql('SELECT COUNT(*) AS n FROM orders')).toBe('SELECT COUNT(*) AS n\nFROM orders');
    expect(formatSql('SELECT DISTINCT status FROM orders')).toBe('SELECT DISTINCT status\nFROM orders');
  });

  it('breaks top-level AND/OR of WHERE, but not the AND of BETWEEN or inside CASE', () => {
    const sql =
      "SELECT 1 FROM t WHERE d BETWEEN '2025-01-01' AND '2025-12-31' AND (a = 1 OR b = 2) AND CASE WHEN x AND y THEN 1 END = 1 OR z";
    expect(formatSql(sql)).toBe(
      [
        'SELECT 1',
        'FROM t',
        "WHERE d BETWEEN '2025-01-01' AND '2025-12-31'",
        '  AND (a = 1 OR b = 2)',
        '  AND CASE WHEN x AND y THEN 1 END = 1',
        '  OR z',
      ].join('\n'),
    );
  });

  it('indents subqueries and CTEs', () => {
    const sql =
      'WITH r AS (SELECT o.id, SUM(x) AS s FROM o GROUP BY o.id) SELECT * FROM r WHERE s > (SELECT AVG(s) FROM r) UNION ALL SELECT 0, 0';
    expect(formatSql(sql)).toBe(
      [
        'WITH r AS (',
        '  SELECT',
        '    o.id,',
        '    SUM(x) AS s',
        '  FROM o',
        '  GROUP BY o.id',
        ')',
        'SELECT *',
        'FROM r',
        'WHERE s > (',
        '  SELECT AVG(s)',
        '  FROM r',
        ')',
        'UNION ALL',
        'SELECT',
        '  0,',
        '  0',
      ].join('\n'),
    );
  });

  it.each([
    [
      'EXTRACT(… FROM …)',
      'SELECT EXTRACT(YEAR FROM d) AS y FROM t',
      'SELECT EXTRACT(YEAR FROM d) AS y\nFROM t',
    ],
    [
      'window ORDER BY',
      'SELECT RANK() OVER (PARTITION BY a ORDER BY b) FROM t',
      'SELECT RANK() OVER (PARTITION BY a ORDER BY b)\nFROM t',
    ],
    [
      'IS DISTINCT FROM',
      'SELECT 1 FROM t WHERE a IS DISTINCT FROM b',
      'SELECT 1\nFROM t\nWHERE a IS DISTINCT FROM b',
    ],
    ['a column named like a keyword', 'SELECT t.from FROM t', 'SELECT t.from\nFROM t'],
    ['LEFT() the function', 'SELECT LEFT(name, 2) FROM t', 'SELECT LEFT(name, 2)\nFROM t'],
    ['ORDER without BY', 'SELECT "order" FROM t', 'SELECT "order"\nFROM t'],
  ])('does not break inside %s', (_label, sql, expected) => {
    expect(formatSql(sql)).toBe(expected);
  });

  it('never changes strings, quoted names or comments, only whitespace between tokens', () => {
    const sql = `SELECT 'a  FROM  b', "x  y", $$ WHERE  $$, E'it\\'s  here' /* keep  this */ FROM t -- trailing  note
WHERE a = 1`;
    const formatted = formatSql(sql);
    expect(formatted).toContain("'a  FROM  b'");
    expect(formatted).toContain('"x  y"');
    expect(formatted).toContain('$$ WHERE  $$');
    expect(formatted).toContain("E'it\\'s  here'");
    expect(formatted).toContain('/* keep  this */');
    expect(squeeze(formatted)).toBe(squeeze(sql));
  });

  it('ends a line after a -- comment so it never swallows the rest of the query', () => {
    const formatted = formatSql('SELECT a, -- the id\n b FROM t -- why\nWHERE (x -- inner\n)');
    expect(formatted).toBe(
      ['SELECT', '  a,', '  -- the id', '  b', 'FROM t -- why', 'WHERE (x -- inner', ')'].join('\n'),
    );
  });

  it('keeps keyword case and separates statements with a blank line', () => {
    expect(formatSql('select 1; select 2;')).toBe('select 1;\n\nselect 2;');
  });

  it.each([
    ['', ''],
    ['   \n  ', ''],
    ['SHOW TABLES', 'SHOW TABLES'],
    ['SELECT (((1', 'SELECT (((1'],
    ['SELECT 1)) FROM t', 'SELECT 1))\nFROM t'],
    ["SELECT 'unterminated", "SELECT 'unterminated"],
    ['SELECT /* open comment', 'SELECT /* open comment'],
  ])('copes with odd input %j', (sql, expected) => {
    expect(formatSql(sql)).toBe(expected);
  });

  it('leaves absurdly deep nesting as written instead of overflowing the stack', () => {
    const sql = `SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(formatSql(sql)).toBe(sql);
  });

  it('reformats already formatted SQL to the same text', () => {
    const once = formatSql(
      'SELECT a, b FROM t JOIN u ON t.id = u.id WHERE a > 1 AND b < 2 ORDER BY a LIMIT 3',
    );
    expect(formatSql(once)).toBe(once);
  });
});
