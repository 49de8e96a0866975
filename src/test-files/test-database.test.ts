import { describe, expect, it } from 'vitest';
import { chooseTestDatabase } from './test-database.js';

describe('chooseTestDatabase', () => {
  it.each([
    ['the named one', 'finance', true, ['shop', 'finance'], 'finance'],
    ['the only one, unnamed', null, true, ['shop'], 'shop'],
    ['none for a test without SQL that names none', null, false, ['shop', 'finance'], null],
    ['the named one for a test without SQL', 'shop', false, ['shop', 'finance'], 'shop'],
  ] as const)('picks %s', (_label, database, hasSql, configured, name) => {
    expect(chooseTestDatabase({ database, hasSql, configured })).toEqual({ success: true, name });
  });

  it.each([
    [
      'several configured and none named',
      null,
      ['shop', 'finance'],
      'AMBIGUOUS_DATABASE',
      'database',
      'several databases are configured (shop, finance); name the one the reference SQL runs on',
    ],
    [
      'none configured',
      null,
      [],
      'NO_DATABASE',
      'sql',
      'no database is configured in nao_config.yaml to run the reference SQL on',
    ],
    [
      'an unknown name',
      'sales',
      ['shop', 'finance'],
      'UNKNOWN_DATABASE',
      'database',
      'unknown database "sales" (configured: shop, finance)',
    ],
  ] as const)('refuses %s, naming the key to fix', (_label, database, configured, code, field, message) => {
    expect(chooseTestDatabase({ database, hasSql: true, configured })).toEqual({
      success: false,
      code,
      field,
      message,
    });
  });
});
