import { describe, expect, it } from 'vitest';
import { QUERY_ID_PATTERN, randomQueryId } from './query-results.js';

describe('randomQueryId', () => {
  it('draws distinct query_ + 8 hex ids, usable as DuckDB table names', () => {
    const ids = new Set(Array.from({ length: 1000 }, randomQueryId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(QUERY_ID_PATTERN);
  });

  it.each(['query_0123abcd', 'query_ffffffff'])('accepts %s', (id) => {
    expect(QUERY_ID_PATTERN.test(id)).toBe(true);
  });

  it.each([
    'query_0123ABCD',
    'query_0123abc',
    'query_0123abcde',
    'q_0123abcd',
    'query_0123abc;',
    ' query_0123abcd',
  ])('rejects %s', (id) => {
    expect(QUERY_ID_PATTERN.test(id)).toBe(false);
  });
});
