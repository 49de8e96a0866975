import { describe, expect, it } from 'vitest';
import {
  describeServerTarget,
  redactSecrets,
  type ServerConnectionFields,
  secretsOf,
} from './connection-target.js';

describe('describeServerTarget', () => {
  it.each<[ServerConnectionFields, number, string]>([
    [
      { host: 'db.internal', port: 6543, user: 'nao', password: 'pw', database: 'shop' },
      5432,
      'db.internal:6543/shop as user nao',
    ],
    [{ database: 'shop' }, 5432, 'localhost:5432/shop'],
    [
      { url: 'postgres://nao:s3cret@db.internal:6543/shop?sslmode=require' },
      5432,
      'db.internal:6543/shop as user nao',
    ],
    [{ url: 'postgresql://db.internal/shop' }, 5432, 'db.internal:5432/shop'],
    [{ url: 'postgres:///shop?host=/var/run/postgresql' }, 5432, '/var/run/postgresql:5432/shop'],
    [
      { url: 'postgres://nao:pw@db/shop', host: 'ignored', database: 'ignored' },
      5432,
      'db:5432/shop as user nao',
    ],
    [{ url: 'mysql://root:p%40ss@127.0.0.1/test' }, 3306, '127.0.0.1:3306/test as user root'],
  ])('%j → %s', (fields, defaultPort, expected) => {
    const text = describeServerTarget(fields, defaultPort);
    expect(text).toBe(expected);
    for (const secret of secretsOf(fields)) expect(text).not.toContain(secret);
  });

  it('never shows the password of an unparsable url', () => {
    const text = describeServerTarget({ url: 'postgres://nao:hunter2@[bad/shop' }, 5432);
    expect(text).not.toContain('hunter2');
    expect(text).toContain('unparsable url');
  });
});

describe('redactSecrets', () => {
  it.each<[string, string[], string]>([
    ['connect postgres://nao:hunter2@db:5432/x failed', [], 'connect postgres://nao:***@db:5432/x failed'],
    ['mysql://root:@h/db', [], 'mysql://root:***@h/db'],
    ['password "hunter2" rejected, hunter2!', ['hunter2'], 'password "***" rejected, ***!'],
    ['p%40ss and p@ss', secretsOf({ url: 'mysql://root:p%40ss@h/db' }), '*** and ***'],
    ['nothing secret here', ['absent'], 'nothing secret here'],
    ['abcabc', ['abc', 'abcabc'], '***'],
  ])('%s', (text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });
});
