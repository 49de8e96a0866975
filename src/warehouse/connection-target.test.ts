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
    ['p%40ssword and p@ssword', secretsOf({ url: 'mysql://root:p%40ssword@h/db' }), '*** and ***'],
    ['nothing secret here', ['absent'], 'nothing secret here'],
    ['abcdefabcdef', ['abcdef', 'abcdefabcdef'], '***'],
    // A one-letter password must not garble the driver's message.
    ['getaddrinfo ENOTFOUND acela.proxy.rlwy.net', ['x'], 'getaddrinfo ENOTFOUND acela.proxy.rlwy.net'],
    ['auth failed for 12345', ['12345'], 'auth failed for 12345'],
    // Only whole occurrences: the secret inside a longer word is not a leak of it.
    ['user hunter22 hunter2-x (hunter2)', ['hunter2'], 'user hunter22 ***-x (***)'],
    ['a.b*c+d? leaked', ['a.b*c+d?'], '*** leaked'],
    ['mysql://root:x@h/db refused', ['x'], 'mysql://root:***@h/db refused'],
  ])('%s', (text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });
});
