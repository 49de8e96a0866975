import { createAddressLimiter } from './address-limiter.js';
import { type AuthAdapter, NAO_MODELS } from './auth.js';

export interface LoginLimits {
  /** Failed log-ins of one account within the window before it is locked. */
  maxAccountFailures: number;
  /** Failed log-ins from one address within the window before it is locked (guessing many accounts). */
  maxAddressFailures: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = Object.freeze({
  maxAccountFailures: 5,
  maxAddressFailures: 20,
  windowMs: 15 * 60 * 1000,
});

export type LoginAllowance =
  | { allowed: true }
  | { allowed: false; scope: 'account' | 'address'; retryAfterSeconds: number };

export interface LoginAttempt {
  email: string;
  /** The peer address of the request; null when unknown (then only the account is limited). */
  address: string | null;
}

/** How a reserved attempt ended: a wrong password counts, a right one clears, anything else neither. */
export type AttemptOutcome = 'success' | 'failure' | 'none';

export type LoginReservation =
  | { allowed: true; settle(outcome: AttemptOutcome): Promise<void> }
  | Extract<LoginAllowance, { allowed: false }>;

export interface LoginLimiter {
  /** Asked before the password is checked: a locked account is refused even with the right password. */
  check(attempt: LoginAttempt): Promise<LoginAllowance>;
  /**
   * Checks and takes one attempt in a single step, before the password is hashed: attempts
   * still being checked count against the limit like failures, so 40 log-ins sent at once get
   * as many password checks as the limit allows, not 40. `settle` must follow every allowed one.
   */
  reserve(attempt: LoginAttempt): Promise<LoginReservation>;
  recordFailure(attempt: LoginAttempt): Promise<void>;
  /** A successful log-in clears the account's failures (not the address's). */
  recordSuccess(attempt: LoginAttempt): Promise<void>;
}

/**
 * Failed log-ins limited per account and per address over a sliding window. The account's
 * failures are stored in the account store, so the limit holds across restarts and across
 * servers sharing PostgreSQL; the address's are kept in memory only (address-limiter.ts says
 * why), so a restart lifts an address lock-out.
 */
export function createLoginLimiter(options: {
  adapter: AuthAdapter;
  limits?: LoginLimits;
  now?: () => Date;
}): LoginLimiter {
  const { adapter } = options;
  const limits = options.limits ?? DEFAULT_LOGIN_LIMITS;
  const now = options.now ?? (() => new Date());
  const model = NAO_MODELS.loginFailure;
  const addresses = createAddressLimiter({ max: limits.maxAddressFailures, windowMs: limits.windowMs, now });

  const accountKey = (attempt: LoginAttempt) => `account:${normalizeEmail(attempt.email)}`;
  const addressOf = (attempt: LoginAttempt) => attempt.address || null;
  // Attempts reserved and not settled yet, per account key and per address (this process only).
  const pendingAccounts = new Map<string, number>();
  const pendingAddresses = new Map<string, number>();
  const bump = (counts: Map<string, number>, key: string | null, by: 1 | -1) => {
    if (key === null) return;
    const count = (counts.get(key) ?? 0) + by;
    if (count <= 0) counts.delete(key);
    else counts.set(key, count);
  };
  // Per account, the stored failures are read and the attempt reserved one request at a time:
  // otherwise every request of a burst reads the count before any of them is recorded.
  const locks = new Map<string, Promise<void>>();
  const oneAtATime = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = locks.get(key) ?? Promise.resolve();
    let unlock!: () => void;
    const gate = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    const mine = previous.then(() => gate);
    locks.set(key, mine);
    await previous;
    try {
      return await work();
    } finally {
      unlock();
      if (locks.get(key) === mine) locks.delete(key);
    }
  };

  const limiter: LoginLimiter = {
    check: (attempt) => checkWithPending(attempt, { account: 0, address: 0 }),

    async reserve(attempt) {
      const key = accountKey(attempt);
      const address = addressOf(attempt);
      return oneAtATime(key, async () => {
        const allowance = await checkWithPending(attempt, {
          account: pendingAccounts.get(key) ?? 0,
          address: address === null ? 0 : (pendingAddresses.get(address) ?? 0),
        });
        if (!allowance.allowed) return allowance;
        bump(pendingAccounts, key, 1);
        bump(pendingAddresses, address, 1);
        let settled = false;
        return {
          allowed: true as const,
          async settle(outcome) {
            if (settled) return;
            settled = true;
            try {
              // Recorded before the reservation is let go, so a later check sees one or the other.
              if (outcome === 'failure') await limiter.recordFailure(attempt);
              else if (outcome === 'success') await limiter.recordSuccess(attempt);
            } finally {
              bump(pendingAccounts, key, -1);
              bump(pendingAddresses, address, -1);
            }
          },
        };
      });
    },

    async recordFailure(attempt) {
      const at = now();
      await adapter.deleteMany({
        model,
        where: [{ field: 'createdAt', operator: 'lt', value: new Date(at.getTime() - limits.windowMs) }],
      });
      await adapter.create({ model, data: { key: accountKey(attempt), createdAt: at } });
      const address = addressOf(attempt);
      if (address !== null) addresses.record(address);
    },

    async recordSuccess(attempt) {
      await adapter.deleteMany({ model, where: [{ field: 'key', value: accountKey(attempt) }] });
    },
  };
  return limiter;

  async function checkWithPending(
    attempt: LoginAttempt,
    pending: { account: number; address: number },
  ): Promise<LoginAllowance> {
    const at = now();
    const since = new Date(at.getTime() - limits.windowMs);
    const max = limits.maxAccountFailures;
    const failures = await adapter.findMany<{ createdAt: Date | string }>({
      model,
      where: [
        { field: 'key', value: accountKey(attempt) },
        { field: 'createdAt', operator: 'gt', value: since },
      ],
      sortBy: { field: 'createdAt', direction: 'asc' },
    });
    if (failures.length + pending.account >= max) {
      // Attempts still being checked may yet succeed: a few seconds tell.
      if (failures.length < max) return { allowed: false, scope: 'account', retryAfterSeconds: 5 };
      // Allowed again once enough of the window's failures have aged out of it.
      const freeing = failures[failures.length - max]!;
      const freedAt = new Date(freeing.createdAt).getTime() + limits.windowMs;
      return {
        allowed: false,
        scope: 'account',
        retryAfterSeconds: Math.max(1, Math.ceil((freedAt - at.getTime()) / 1000)),
      };
    }
    const address = addressOf(attempt);
    const byAddress =
      address === null
        ? ({ allowed: true } as const)
        : addresses.check(address, { pending: pending.address });
    return byAddress.allowed ? { allowed: true } : { ...byAddress, scope: 'address' };
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
