import { MAX_TIMEOUT_S } from '../config/index.js';
import { UsageError } from '../errors/index.js';

/** The value of `--port`: 0 (any free port) to 65535; anything else is a usage error naming it. */
export function portFlag(value: string): number {
  const port = /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new UsageError({
      code: 'INVALID_PORT',
      message: `--port must be a whole number from 0 (any free port) to 65535, got "${value}".`,
    });
  }
  return port;
}

/** A count such as `-t 4`: a whole number ≥ 1. */
export function positiveIntegerFlag(flag: string, value: string): number {
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message: `${flag} must be a whole number ≥ 1, got "${value}".`,
    });
  }
  return number;
}

/** An amount such as `--max-cost 0.5`: a number > 0. */
export function positiveNumberFlag(flag: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new UsageError({ code: 'INVALID_FLAG', message: `${flag} must be a number > 0, got "${value}".` });
  }
  return number;
}

/** A time limit such as `--timeout 30`, in seconds: > 0 and at most `MAX_TIMEOUT_S`. */
export function secondsFlag(flag: string, value: string): number {
  const number = positiveNumberFlag(flag, value);
  if (number > MAX_TIMEOUT_S) {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message: `${flag} must be at most ${MAX_TIMEOUT_S} seconds (about 24 days), got "${value}".`,
    });
  }
  return number;
}
