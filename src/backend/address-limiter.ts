/**
 * Events per key (a peer address) over a sliding window, in this process's memory only. What
 * one address did must not outlive a restart: every local user shares 127.0.0.1, so a stored
 * lock-out of that address would let any local process lock everyone out until it expired.
 */
export interface AddressLimiter {
  /**
   * Whether one more event is allowed for `key` now; when not, in how many seconds it will be.
   * `pending`: events under way and not recorded yet, which count as recorded.
   */
  check(
    key: string,
    options?: { pending?: number },
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number };
  record(key: string): void;
}

export interface AddressLimits {
  /** Events of one key within the window before the next is refused. */
  max: number;
  windowMs: number;
}

/** Sign-ups from one address: enough for a team behind one proxy, too few to fill the store. */
export const DEFAULT_SIGN_UP_LIMITS: AddressLimits = Object.freeze({ max: 10, windowMs: 15 * 60 * 1000 });

/** Keys remembered at most; the least recently active go first, so memory stays bounded. */
const MAX_KEYS = 10_000;

export function createAddressLimiter(options: AddressLimits & { now?: () => Date }): AddressLimiter {
  const now = options.now ?? (() => new Date());
  // Map order is the order of the last event: the first key is the least recently active.
  const events = new Map<string, number[]>();

  const recent = (key: string, at: number): number[] => {
    const kept = (events.get(key) ?? []).filter((time) => time > at - options.windowMs);
    if (kept.length === 0) events.delete(key);
    else events.set(key, kept);
    return kept;
  };

  return {
    check(key, { pending = 0 } = {}) {
      const at = now().getTime();
      const times = recent(key, at);
      if (times.length + pending < options.max) return { allowed: true };
      // Only the events under way fill it: they end within seconds.
      if (times.length < options.max) return { allowed: false, retryAfterSeconds: 5 };
      // Allowed again once enough of the window's events have aged out of it.
      const freedAt = times[times.length - options.max]! + options.windowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - at) / 1000)) };
    },
    record(key) {
      const at = now().getTime();
      const times = recent(key, at);
      events.delete(key);
      events.set(key, [...times, at]);
      while (events.size > MAX_KEYS) {
        const oldest = events.keys().next().value;
        if (oldest === undefined) break;
        events.delete(oldest);
      }
    },
  };
}
