import { z } from 'zod';
import { messageOf } from '../../errors/index.js';
import { booleanField } from './assertion-fields.js';

/** What `response_matches` and `response_not_matches` share: a JavaScript regular expression. */
export interface ResponsePattern {
  pattern: string;
  ignoreCase: boolean;
}

export const RESPONSE_PATTERN_FIELDS = ['type', 'pattern', 'ignore_case'] as const;

/** The flags nao compiles with: none but `i`, so `^` and `$` are the ends of the whole text. */
export function compilePattern(pattern: ResponsePattern): RegExp {
  return new RegExp(pattern.pattern, pattern.ignoreCase ? 'i' : '');
}

/** Why `pattern` does not compile, with a hint for the inline flags other engines accept. */
function patternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    const reason = messageOf(error);
    const hint = /^\(\?[a-z]+\)/.test(pattern)
      ? '; inline flags such as (?i) are not supported: use `ignore_case: true`'
      : '';
    return `is not a valid regular expression (${reason})${hint}`;
  }
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
