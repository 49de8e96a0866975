import { describe, expect, it } from 'vitest';
import { argsMatch } from './args-match.js';

describe('argsMatch', () => {
  it.each([
    ['same scalar keys', { sql_query: 'SELECT 1' }, { sql_query: 'SELECT 1' }],
    ['subset of the call arguments', { database_id: 'wh' }, { database_id: 'wh', sql_query: 'SELECT 1' }],
    ['empty mapping matches any mapping', {}, { anything: 1 }],
    ['nested mappings match as subsets', { opts: { limit: 10 } }, { opts: { limit: 10, offset: 0 }, x: 1 }],
    ['deeply nested subset', { a: { b: { c: true } } }, { a: { b: { c: true, d: false }, e: 1 } }],
    ['explicit null equals null', { filter: null }, { filter: null }],
    ['equal lists', { ids: [1, 2, 3] }, { ids: [1, 2, 3] }],
    ['lists of mappings equal exactly', { rows: [{ a: 1 }] }, { rows: [{ a: 1 }] }],
    ['integer written as float', { limit: 10.0 }, { limit: 10 }],
    ['booleans', { verbose: false }, { verbose: false }],
    ['NaN from YAML .nan', { x: Number.NaN }, { x: Number.NaN }],
    ['unicode strings', { q: 'café ☕' }, { q: 'café ☕' }],
  ])('matches: %s', (_label, expected, actual) => {
    expect(argsMatch(expected, actual)).toBe(true);
  });

  it.each([
    ['different scalar', { sql_query: 'SELECT 1' }, { sql_query: 'SELECT 2' }],
    ['missing key', { database_id: 'wh' }, { sql_query: 'SELECT 1' }],
    ['expected null but key absent', { filter: null }, {}],
    ['string vs number (strict)', { limit: '10' }, { limit: 10 }],
    ['number vs string (strict)', { limit: 10 }, { limit: '10' }],
    ['boolean vs number (strict)', { flag: true }, { flag: 1 }],
    ['null vs empty string', { x: null }, { x: '' }],
    ['case differs', { q: 'Select' }, { q: 'select' }],
    ['whitespace differs', { q: 'SELECT 1' }, { q: 'SELECT 1 ' }],
    ['list order differs', { ids: [1, 2] }, { ids: [2, 1] }],
    ['list is a prefix', { ids: [1, 2] }, { ids: [1, 2, 3] }],
    ['mapping inside a list must be equal, not a subset', { rows: [{ a: 1 }] }, { rows: [{ a: 1, b: 2 }] }],
    ['mapping expected, list given', { opts: { a: 1 } }, { opts: [1] }],
    ['list expected, mapping given', { ids: [1] }, { ids: { 0: 1 } }],
    ['nested value differs', { opts: { limit: 10 } }, { opts: { limit: 11 } }],
    ['call arguments are not a mapping', { a: 1 }, 'a=1'],
    ['call arguments are missing', { a: 1 }, undefined],
    ['call arguments are null', {}, null],
    ['call arguments are a list', {}, []],
    ['inherited key does not count', { toString: 'x' }, {}],
  ])('does not match: %s', (_label, expected, actual) => {
    expect(argsMatch(expected, actual)).toBe(false);
  });
});
