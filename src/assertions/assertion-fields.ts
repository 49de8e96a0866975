import { z } from 'zod';

/** An integer >= `min`; booleans, strings and fractions are refused rather than coerced. */
export function integerField(min: number) {
  return z.custom<number>(
    (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min,
    `must be an integer >= ${min}`,
  );
}

/** A finite number >= 0 (a price, a budget). */
export const nonNegativeNumberField = z.custom<number>(
  (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
  'must be a number >= 0',
);

/** A tool name as the agent calls it (`execute_sql`, `read`, …). */
export const toolNameField = z
  .string({ error: 'must be a non-empty string (the tool name, e.g. execute_sql)' })
  .trim()
  .min(1, 'must be a non-empty string (the tool name, e.g. execute_sql)');

/** `true` / `false` only: YAML `yes` is already a boolean, the string "true" is a mistake worth naming. */
export const booleanField = z.boolean({ error: 'must be true or false' });

/** Shortens a text for a failure message, on one line. */
export function excerpt(text: string, maxChars = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}

/** `1 row`, `2 rows`: a count with its noun, for messages. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
