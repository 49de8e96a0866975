/**
 * Words people write for a known key that spelling distance cannot find
 * (`question` is nowhere near `prompt`).
 */
export const TEST_KEY_SYNONYMS: Readonly<Record<string, string>> = {
  question: 'prompt',
  query: 'sql',
  reference_sql: 'sql',
  expected_sql: 'sql',
  db: 'database',
  database_id: 'database',
  assertion: 'assertions',
  asserts: 'assertions',
  tolerance: 'comparison',
  tolerances: 'comparison',
};
