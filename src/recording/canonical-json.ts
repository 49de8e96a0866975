import { createHash } from 'node:crypto';

/**
 * JSON with the keys of every object sorted, so two requests that differ only in key order
 * (or in how a provider package happened to build its body) hash the same.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/** A deep copy whose objects list their keys in code-unit order (stable diffs, stable hashes). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** Hex SHA-256 of the canonical JSON of `value`. */
export function sha256Of(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
