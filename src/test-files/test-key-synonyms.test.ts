import { describe, expect, it } from 'vitest';
import { didYouMean as suggest } from '../errors/index.js';
import { TEST_KEY_SYNONYMS } from './test-key-synonyms.js';

const didYouMean = (word: string, known: readonly string[]) =>
  suggest(word, known, { synonyms: TEST_KEY_SYNONYMS });

const KEYS = ['name', 'prompt', 'sql', 'database', 'assertions', 'ordered', 'comparison'];

describe('didYouMean', () => {
  it.each([
    ['promt', 'prompt'],
    ['Prompt', 'prompt'],
    ['prompts', 'prompt'],
    ['porm pt', 'prompt'],
    ['sqll', 'sql'],
    ['assertion', 'assertions'],
    ['asertions', 'assertions'],
    ['databse', 'database'],
    ['odrered', 'ordered'],
    ['question', 'prompt'],
    ['reference_sql', 'sql'],
    ['reference-sql', 'sql'],
    ['db', 'database'],
    ['tolerance', 'comparison'],
  ])('%s → %s', (word, expected) => {
    expect(didYouMean(word, KEYS)).toBe(expected);
  });

  it.each([['description'], ['tags'], ['x'], ['expected_rows']])('%s has no close key', (word) => {
    expect(didYouMean(word, KEYS)).toBeNull();
  });

  it('never suggests a synonym that is not among the known keys', () => {
    expect(didYouMean('question', ['tool', 'args'])).toBeNull();
  });
});
