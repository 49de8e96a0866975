import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestAuth, storeKinds, type TestAuth } from '../../test-support/backend/test-stores.js';
import { createLoginLimiter, type LoginLimiter } from './login-limiter.js';

const stores = await storeKinds({ tests: 'the log-in limit tests' });
const MINUTE = 60_000;

describe.each(stores)('failed log-in limit over %s', (kind) => {
  let store: TestAuth;
  let clock: Date;
  let limiter: LoginLimiter;

  beforeAll(async () => {
    store = await openTestAuth(kind);
    clock = new Date('2026-03-01T10:00:00Z');
    limiter = createLoginLimiter({
      adapter: store.adapter,
      limits: { maxAccountFailures: 3, maxAddressFailures: 5, windowMs: 15 * MINUTE },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it('locks an account at the limit and frees it as failures leave the window', async () => {
    const attempt = { email: 'ada@example.com', address: '198.51.100.1' };
    for (let i = 0; i < 3; i++) {
      expect(await limiter.check(attempt)).toEqual({ allowed: true });
      await limiter.recordFailure(attempt);
      advance(MINUTE);
    }
    // Same account from another address, spelled differently: still locked.
    const locked = await limiter.check({ email: ' ADA@example.com', address: '198.51.100.2' });
    expect(locked).toEqual({ allowed: false, scope: 'account', retryAfterSeconds: 12 * 60 });
    advance(12 * MINUTE);
    expect(await limiter.check(attempt)).toEqual({ allowed: true });
  });

  it('limits one address guessing many accounts', async () => {
    const address = '198.51.100.9';
    for (let i = 0; i < 5; i++) await limiter.recordFailure({ email: `user${i}@example.com`, address });
    expect(await limiter.check({ email: 'fresh@example.com', address })).toMatchObject({
      allowed: false,
      scope: 'address',
    });
    expect(await limiter.check({ email: 'fresh@example.com', address: '198.51.100.10' })).toEqual({
      allowed: true,
    });
    expect(await limiter.check({ email: 'fresh@example.com', address: null })).toEqual({ allowed: true });
  });

  it('keeps the address lock-out in memory: after a restart the address may log in again, the locked account stays locked', async () => {
    const address = '198.51.100.20';
    // Any local process can fail log-ins from the address every user shares (127.0.0.1).
    for (let i = 0; i < 5; i++) await limiter.recordFailure({ email: `victim${i % 2}@example.com`, address });
    expect((await limiter.check({ email: 'someone@example.com', address })).allowed).toBe(false);
    const restarted = createLoginLimiter({
      adapter: store.adapter,
      limits: { maxAccountFailures: 3, maxAddressFailures: 5, windowMs: 15 * MINUTE },
      now: () => clock,
    });
    expect(await restarted.check({ email: 'someone@example.com', address })).toEqual({ allowed: true });
    expect(await restarted.check({ email: 'victim0@example.com', address: '198.51.100.21' })).toMatchObject({
      allowed: false,
      scope: 'account',
    });
  });

  it('a successful log-in clears the account failures', async () => {
    const attempt = { email: 'grace@example.com', address: null };
    for (let i = 0; i < 3; i++) await limiter.recordFailure(attempt);
    expect((await limiter.check(attempt)).allowed).toBe(false);
    await limiter.recordSuccess(attempt);
    expect(await limiter.check(attempt)).toEqual({ allowed: true });
  });

  it('reserves attempts sent at once: only as many as the limit allows are checked', async () => {
    const attempt = { email: 'burst@example.com', address: '198.51.100.30' };
    const reserved = await Promise.all(Array.from({ length: 10 }, () => limiter.reserve(attempt)));
    const allowed = reserved.filter((reservation) => reservation.allowed);
    expect(allowed).toHaveLength(3);
    expect(reserved.find((reservation) => !reservation.allowed)).toMatchObject({ scope: 'account' });
    // A settled failure is stored before the reservation is let go: still three, still locked.
    for (const reservation of allowed) if (reservation.allowed) await reservation.settle('failure');
    expect((await limiter.reserve(attempt)).allowed).toBe(false);
  });

  it('lets a reservation go without a failure when the check ended otherwise', async () => {
    const attempt = { email: 'busy@example.com', address: null };
    const reserved = await Promise.all(Array.from({ length: 3 }, () => limiter.reserve(attempt)));
    expect((await limiter.reserve(attempt)).allowed).toBe(false);
    for (const reservation of reserved) if (reservation.allowed) await reservation.settle('none');
    expect((await limiter.reserve(attempt)).allowed).toBe(true);
  });

  it('prunes failures older than the window', async () => {
    await limiter.recordFailure({ email: 'old@example.com', address: null });
    advance(16 * MINUTE);
    await limiter.recordFailure({ email: 'new@example.com', address: null });
    const rows = await store.adapter.findMany<{ key: string }>({ model: 'loginFailure' });
    expect(rows.map((row) => row.key)).toEqual(['account:new@example.com']);
  });
});
