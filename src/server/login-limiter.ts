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
 * Failed log-ins limited per account and per address over a sliding window, stored in the
 * account store so the limit holds across restarts and across servers sharing PostgreSQL.
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

  function keysOf(attempt: LoginAttempt): { key: string; scope: 'account' | 'address'; max: number }[] {
    const keys: { key: string; scope: 'account' | 'address'; max: number }[] = [
      { key: `account:${normalizeEmail(attempt.email)}`, scope: 'account', max: limits.maxAccountFailures },
    ];
    if (attempt.address !== null && attempt.address !== '') {
      keys.push({ key: `address:${attempt.address}`, scope: 'address', max: limits.maxAddressFailures });
    }
    return keys;
  }

  return {
    async check(attempt) {
      const at = now();
      const since = new Date(at.getTime() - limits.windowMs);
      for (const { key, scope, max } of keysOf(attempt)) {
        const failures = await adapter.findMany<{ createdAt: Date | string }>({
          model,
          where: [
            { field: 'key', value: key },
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
            scope,
            retryAfterSeconds: Math.max(1, Math.ceil((freedAt - at.getTime()) / 1000)),
          };
        }
      }
      return { allowed: true };
    },

    async recordFailure(attempt) {
      const at = now();
      await adapter.deleteMany({
        model,
        where: [{ field: 'createdAt', operator: 'lt', value: new Date(at.getTime() - limits.windowMs) }],
      });
      for (const { key } of keysOf(attempt)) {
        await adapter.create({ model, data: { key, createdAt: at } });
      }
    },

    async recordSuccess(attempt) {
      await adapter.deleteMany({
        model,
        where: [{ field: 'key', value: `account:${normalizeEmail(attempt.email)}` }],
      });
    },
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
