/**
 * Regular expressions written by someone nao does not control (a test file's author, the
 * model) run on RE2 (`re2js`), whose matching time is linear in the text: a pattern such as
 * `^(a+)+$` cannot backtrack for hours and block the process. RE2 has no backreferences and
 * no lookaround; the few JavaScript spellings RE2 writes differently are translated.
 */
import { RE2JS } from 're2js';

/** A compiled pattern, with the two calls nao needs of it. */
export interface LinearRegex {
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
  /** The first match in `text` and where it starts, or null. */
  exec(text: string): { text: string; index: number } | null;
}

export type CompiledRegex = { success: true; regex: LinearRegex } | { success: false; error: string };

/** JavaScript flag letters and the RE2 flag each becomes; `u` is RE2's only mode anyway. */
const FLAGS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

/**
 * Compiles `pattern` with JavaScript-style `flags` (`i`, `m`, `s`, `u`) on RE2. A pattern RE2
 * cannot run comes back as an error that says why and what to write instead, never a throw.
 */
export function compileLinearRegex(options: { pattern: string; flags?: string }): CompiledRegex {
  let flags = 0;
  for (const letter of options.flags ?? '') {
    const flag = FLAGS[letter];
    if (flag === undefined)
      return { success: false, error: `unsupported flag "${letter}" (supported: i, m, s)` };
    flags |= flag;
  }
  const translated = toRe2Syntax(options.pattern);
  if (!translated.success) return translated;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated.pattern, flags);
  } catch (error) {
    // RE2's messages start with "error parsing regexp: " and quote the offending part.
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /^error parsing regexp: /,
      '',
    );
    return { success: false, error: `is not a valid RE2 regular expression (${reason})` };
  }
  return {
    success: true,
    regex: {
      test: (text) => compiled.test(text),
      exec: (text) => {
        // re2js types its result loosely; it is shaped like RegExp's.
        const match = compiled.exec(text) as RegExpExecArray | null;
        return match === null ? null : { text: match[0], index: match.index };
      },
    },
  };
}

type Translated = { success: true; pattern: string } | { success: false; error: string };

const LOOKAROUND = /^\(\?(=|!|<=|<!)/;
const LOOKAROUND_NAMES: Record<string, string> = {
  '=': 'lookahead (?=…)',
  '!': 'negative lookahead (?!…)',
  '<=': 'lookbehind (?<=…)',
  '<!': 'negative lookbehind (?<!…)',
};

/**
 * Rewrites the JavaScript spellings RE2 does not read (`\u00e9`, `\u{1F600}`, `\cJ`, `[^]`) and
 * refuses, by name, the features RE2 lacks. Everything else is the same in both syntaxes.
 */
export function toRe2Syntax(pattern: string): Translated {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      const unicode = /^u([0-9a-fA-F]{4})|^u\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 1));
      if (unicode !== null) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        i += unicode[0].length;
        continue;
      }
      const control = /^c([A-Za-z])/.exec(pattern.slice(i + 1));
      if (control !== null) {
        out += `\\x{${(control[1]!.charCodeAt(0) % 32).toString(16)}}`;
        i += 2;
        continue;
      }
      if (!inClass && (/[1-9]/.test(next) || pattern.startsWith('k<', i + 1))) {
        const shown = next === 'k' ? pattern.slice(i, pattern.indexOf('>', i) + 1 || undefined) : `\\${next}`;
        return {
          success: false,
          error: `uses the backreference ${shown}: RE2 syntax has no backreferences; write the repeated text out instead`,
        };
      }
      out += char + next;
      i += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      // `[^]` is JavaScript's "any character, newline included".
      if (pattern.startsWith('[^]', i)) {
        out += '(?s:.)';
        i += 2;
        continue;
      }
      inClass = true;
      out += char;
      continue;
    }
    const lookaround = char === '(' ? LOOKAROUND.exec(pattern.slice(i)) : null;
    if (lookaround !== null) {
      return {
        success: false,
        error: `uses ${LOOKAROUND_NAMES[lookaround[1]!]}: RE2 syntax has no lookahead or lookbehind; match the surrounding text instead`,
      };
    }
    out += char;
  }
  return { success: true, pattern: out };
}
