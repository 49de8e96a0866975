import { describe, expect, it } from 'vitest';
import { asSubquery, withoutFinalSemicolons } from './duckdb-sql-text.js';

describe('asSubquery', () => {
  it('drops the final semicolons and closes on a line of its own, past a trailing comment', () => {
    expect(withoutFinalSemicolons('SELECT 1 ;; \n')).toBe('SELECT 1');
    expect(asSubquery('SELECT 1 -- one\n;; \n')).toBe('(SELECT 1 -- one\n)');
  });
});
