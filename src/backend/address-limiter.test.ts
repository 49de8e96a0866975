import { describe, expect, it } from 'vitest';
import { createAddressLimiter } from './address-limiter.js';

const MINUTE = 60_000;

describe('createAddressLimiter', () => {
  it('refuses the event past the limit until the oldest leaves the window, per key', () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const limiter = createAddressLimiter({ max: 2, windowMs: 10 * MINUTE, now: () => clock });
    limiter.record('198.51.100.1');
    clock = new Date(clock.getTime() + MINUTE);
    limiter.record('198.51.100.1');
    expect(limiter.check('198.51.100.1')).toEqual({ allowed: false, retryAfterSeconds: 9 * 60 });
    expect(limiter.check('198.51.100.2')).toEqual({ allowed: true });
    clock = new Date(clock.getTime() + 9 * MINUTE);
    expect(limiter.check('198.51.100.1')).toEqual({ allowed: true });
  });
});
