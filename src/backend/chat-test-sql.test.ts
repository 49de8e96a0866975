import { describe, expect, it } from 'vitest';
import { savedTestSql } from './chat-test-sql.js';

describe('savedTestSql', () => {
  it.each([
    [
      'an agent one-liner, one clause per line',
      "SELECT status, COUNT(*) AS orders FROM orders WHERE status <> 'returned' GROUP BY status",
      "SELECT\n  status,\n  COUNT(*) AS orders\nFROM\n  orders\nWHERE\n  status <> 'returned'\nGROUP BY\n  status\n",
    ],
    [
      'string literals and casts exactly as written',
      "SELECT a::int FROM t WHERE s = 'it''s  two  spaces'",
      "SELECT\n  a::int\nFROM\n  t\nWHERE\n  s = 'it''s  two  spaces'\n",
    ],
    ['a layout someone already gave it', '  SELECT a\n  FROM t  \n', 'SELECT a\n  FROM t\n'],
    ['what the formatter cannot parse, as written', 'SELECT `a b` FROM t', 'SELECT `a b` FROM t'],
    ['a half-written query, as written', 'SELEC FROM WHERE (', 'SELEC FROM WHERE ('],
    [
      'a function the dialect does not know, not split from its "(" (MySQL would misread it)',
      'SELECT toStartOfMonth(d) AS m, count() FROM t GROUP BY m',
      'SELECT toStartOfMonth(d) AS m, count() FROM t GROUP BY m',
    ],
  ])('%s', (_label, sql, expected) => {
    expect(savedTestSql(sql)).toBe(expected);
  });
});
