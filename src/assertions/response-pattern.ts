import { z } from 'zod';
import { compileLinearRegex, type LinearRegex } from '../agent/linear-regex.js';
import { booleanField } from './assertion-fields.js';

/** What `response_matches` and `response_not_matches` share: a regular expression in RE2 syntax. */
export interface ResponsePattern {
  pattern: string;
  ignoreCase: boolean;
}

export const RESPONSE_PATTERN_FIELDS = ['type', 'pattern', 'ignore_case'] as const;

/** Longest pattern a problem quotes whole. */
const SHOWN_PATTERN_CHARS = 80;

/**
 * Compiles on RE2 (linear-time matching: a test file cannot hang the run) with no flag but
 * `i`, so `^` and `$` are the ends of the whole text. The schema has already compiled it.
 */
export function compilePattern(pattern: ResponsePattern): LinearRegex {
  const compiled = compileLinearRegex({ pattern: pattern.pattern, flags: pattern.ignoreCase ? 'i' : '' });
  if (!compiled.success) throw new Error(`${showPattern(pattern)} ${compiled.error}`);
  return compiled.regex;
}

/** Why RE2 cannot run `pattern`, quoting it, with what to write instead. */
function patternProblem(pattern: string): string | null {
  const compiled = compileLinearRegex({ pattern });
  if (compiled.success) return null;
  const shown =
    pattern.length <= SHOWN_PATTERN_CHARS ? `/${pattern}/` : `/${pattern.slice(0, SHOWN_PATTERN_CHARS)}…/`;
  const fix = compiled.error.startsWith('is not')
    ? '; fix it (RE2 syntax: https://github.com/google/re2/wiki/Syntax)'
    : '';
  return `the pattern ${shown} ${compiled.error}${fix}`;
}

/** The YAML fields of either type, validated; the pattern must compile. */
export function responsePatternFields<T extends 'response_matches' | 'response_not_matches'>(type: T) {
  return z
    .looseObject({
      type: z.literal(type),
      pattern: z
        .string({ error: 'must be a regular expression (text), e.g. "\\\\b42\\\\b"' })
        .min(1, 'must not be empty')
        .superRefine((value, ctx) => {
          const problem = patternProblem(value);
          if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ignore_case: booleanField.optional(),
    })
    .transform((value) => ({ type, pattern: value.pattern, ignoreCase: value.ignore_case ?? false }));
}

/** `/total.*42/i`, as messages show a pattern. */
export function showPattern(pattern: ResponsePattern): string {
  return `/${pattern.pattern}/${pattern.ignoreCase ? 'i' : ''}`;
}
