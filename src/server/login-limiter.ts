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

export interface LoginLimiter {
  /** Asked before the password is checked: a locked account is refused even with the right password. */
  check(attempt: LoginAttempt): Promise<LoginAllowance>;
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

  return {
    async check(attempt) {
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
      if (failures.length >= max) {
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
      const byAddress = address === null ? ({ allowed: true } as const) : addresses.check(address);
      return byAddress.allowed ? { allowed: true } : { ...byAddress, scope: 'address' };
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
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
