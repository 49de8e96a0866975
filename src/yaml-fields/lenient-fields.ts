/**
 * Zod fields that read YAML values as the original nao's pydantic models do: numbers and
 * booleans also as strings, `null` as absent, empty strings refused.
 */
import { z } from 'zod';

export const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * A number, also when written as a numeric string (`port: "5432"`, or a quoted
 * `{{ env('PGPORT') }}`), as the original nao's pydantic models read it. An empty value
 * (an unset variable) counts as absent, so the default applies.
 */
export function lenientNumber<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    if (text === '') return undefined;
    return /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : value;
  }, schema);
}

/** `true`/`false`, also as the strings pydantic accepts for a boolean. */
export function lenientBoolean() {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim().toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(text)) return true;
    if (['false', 'no', 'off', '0'].includes(text)) return false;
    return value;
  }, z.boolean());
}

/** Optional, with `null` read as absent: the original's `nao init` writes `null` for every key left unset. */
export function nullable<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}

/** A TCP port, also as a string (`port: "5432"`). */
export const port = lenientNumber(z.number().int().min(1).max(65535).optional());
