import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestAuth, storeKinds, type TestAuth } from '../../test-support/backend/test-stores.js';
import { type Accounts, createAccounts } from './accounts.js';
import { createInvites } from './invites.js';
import { createLoginLimiter } from './login-limiter.js';

const stores = await storeKinds({ tests: 'the account store tests' });

const origin = { address: '203.0.113.7', userAgent: 'vitest' };
const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });

describe.each(stores)('accounts over %s', (kind) => {
  let store: TestAuth;
  let accounts: Accounts;
  const log: string[] = [];

  beforeAll(async () => {
    store = await openTestAuth(kind);
    accounts = createAccounts({
      auth: store.auth,
      limiter: createLoginLimiter({
        adapter: store.adapter,
        limits: { maxAccountFailures: 2, maxAddressFailures: 10, windowMs: 60_000 },
      }),
      invites: createInvites({ adapter: store.adapter }),
      // These tests sign up many accounts; the invite gate is tested through the backend.
      openSignUp: true,
      log: (line) => log.push(line),
    });
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  it('creates its tables once: a second migration finds nothing to do', async () => {
    expect(store.createdTables).toEqual(
      expect.arrayContaining([
        'nao_user',
        'nao_session',
        'nao_account',
        'nao_cli_code',
        'nao_invite',
        'nao_login_failure',
      ]),
    );
    expect(await store.migrate()).toEqual([]);
  });

  it('signs up, and the token works as a bearer token and as the session cookie', async () => {
    const result = await accounts.signUp({
      email: ' Ada@Example.com ',
      password: 'analytical engine',
      origin,
    });
    expect(result).toMatchObject({ success: true, user: { email: 'ada@example.com', name: 'Ada' } });
    if (!result.success) return;
    expect((await accounts.session(bearer(result.token)))?.user.email).toBe('ada@example.com');
    const cookie = result.cookies.find((value) => value.startsWith('nao.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    const fromCookie = await accounts.session(new Headers({ cookie: cookie.split(';')[0]! }));
    expect(fromCookie?.user.email).toBe('ada@example.com');
  });

  it.each([
    [{ email: 'ada@example.com', password: 'another password' }, 409, 'already exists'],
    [{ email: 'grace@example.com', password: 'short' }, 400, 'Password too short.'],
    [{ email: 'not-an-email', password: 'long enough password' }, 400, 'Invalid email'],
  ])('refuses sign-up %o with %i', async (input, status, message) => {
    const result = await accounts.signUp({ ...input, origin });
    expect(result).toMatchObject({ success: false, status, error: expect.stringContaining(message) });
  });

  it('signs in with the right password only, and never logs the password', async () => {
    const wrong = await accounts.signIn({ email: 'ada@example.com', password: 'difference engine', origin });
    expect(wrong).toEqual({ success: false, status: 401, error: 'Invalid email or password.' });
    const right = await accounts.signIn({ email: 'ADA@example.com', password: 'analytical engine', origin });
    expect(right).toMatchObject({ success: true, user: { email: 'ada@example.com' } });
    expect(log.join('\n')).not.toMatch(/engine/);
  });

  it('signing out revokes the session for every later request', async () => {
    const signedIn = await accounts.signIn({
      email: 'ada@example.com',
      password: 'analytical engine',
      origin,
    });
    if (!signedIn.success) throw new Error(signedIn.error);
    expect(await accounts.signOut(bearer(signedIn.token))).toMatchObject({ revoked: true });
    expect(await accounts.session(bearer(signedIn.token))).toBeNull();
    expect(await accounts.signOut(bearer(signedIn.token))).toEqual({ revoked: false, cookies: [] });
  });

  it('creates a session for an approved CLI log-in', async () => {
    const user = (await store.adapter.findOne<{ id: string }>({
      model: 'user',
      where: [{ field: 'email', value: 'ada@example.com' }],
    }))!;
    const session = await accounts.createSession({ userId: user.id, origin });
    expect(session?.user.email).toBe('ada@example.com');
    expect((await accounts.session(bearer(session!.token)))?.user.id).toBe(user.id);
    expect(await accounts.createSession({ userId: 'no-such-user', origin })).toBeNull();
  });

  it('locks an account after too many failures, even for the right password', async () => {
    await accounts.signUp({ email: 'lin@example.com', password: 'right password', origin });
    for (let i = 0; i < 2; i++) {
      expect(
        await accounts.signIn({ email: 'lin@example.com', password: 'wrong password', origin }),
      ).toMatchObject({
        status: 401,
      });
    }
    const locked = await accounts.signIn({ email: 'lin@example.com', password: 'right password', origin });
    expect(locked).toMatchObject({
      success: false,
      status: 429,
      error: expect.stringContaining('Too many failed log-ins for this account'),
    });
    expect(locked.success === false && locked.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('limits sign-ups per address: the 11th within 15 minutes is refused with 429, another address is not', async () => {
    const from = { address: '203.0.113.50', userAgent: 'vitest' };
    for (let i = 0; i < 10; i++) {
      const result = await accounts.signUp({
        email: `bulk${i}@example.com`,
        password: 'long enough password',
        origin: from,
      });
      expect(result.success).toBe(true);
    }
    const refused = await accounts.signUp({
      email: 'bulk10@example.com',
      password: 'long enough password',
      origin: from,
    });
    expect(refused).toMatchObject({
      success: false,
      status: 429,
      error: expect.stringContaining('Too many sign-ups from this address'),
    });
    expect(refused.success === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    const other = await accounts.signUp({
      email: 'bulk10@example.com',
      password: 'long enough password',
      origin: { address: '203.0.113.51', userAgent: 'vitest' },
    });
    expect(other.success).toBe(true);
  });
});
