/**
 * A reader for the plain subset of YAML most test files are written in: one top-level mapping
 * of simple keys to one-line scalars and `|` / `|-` blocks. It returns exactly what the `yaml`
 * library's `toJS()` gives for such a file, or `null` for anything outside the subset, which the
 * caller then reads with the library (and its messages with line and column).
 *
 * Why: a fresh process spent 160–200 ms reading 500 small test files with the library (most of
 * it warming up a large parser), before the first run of a suite could start; this reader takes a
 * few milliseconds. It never has to be complete, only never different: whenever it is unsure, it
 * gives up, and the tests beside it compare it with the library on thousands of generated files.
 */

/** A value the subset can spell. */
export type PlainScalar = string | boolean | null;

/** Outside the subset: the caller reads the file with the full YAML parser. */
const GIVE_UP = null;

/**
 * Simple keys only; anything else (quoted, numeric, complex keys) goes to the library, and so
 * does a key past YAML's 1,024-character limit for implicit keys.
 */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,127}):(?: +(.*))?$/;
/** Words the YAML 1.2 core schema reads as null or booleans, as keys they would not stay strings. */
const NULL_WORDS = new Set(['~', 'null', 'Null', 'NULL']);
const BOOLEAN_WORDS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
/**
 * Anything but line feeds, printable ASCII and the BMP's printable characters: tabs, carriage
 * returns, byte-order marks, the breaks of YAML 1.1 (NEL, LS, PS) and characters outside the BMP
 * have rules of their own, left to the library. (Other Unicode spaces, such as U+00A0, are text
 * to YAML: only the space and the tab separate, so nothing here trims with `trim()`.)
 */
const OUTSIDE_CHARACTERS = /[^\n\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]/;
/** First characters that make a scalar something other than plain text (or a number). */
const INDICATOR_OR_NUMBER = /^[-?:,[\]{}#&*!|>'"%@`~+.0-9]/;

/**
 * The mapping of `text` when it is in the subset, else `null`. An empty file, comments only, or
 * anything the subset does not cover gives `null`.
 */
export function readPlainYamlMapping(text: string): Record<string, PlainScalar> | null {
  if (OUTSIDE_CHARACTERS.test(text)) return GIVE_UP;
  const lines = text.split('\n');
  const mapping: Record<string, PlainScalar> = {};
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    index++;
    if (isBlank(line) || line.startsWith('#')) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) return GIVE_UP;
    const key = match[1]!;
    if (NULL_WORDS.has(key) || BOOLEAN_WORDS.has(key) || key === '__proto__' || Object.hasOwn(mapping, key)) {
      return GIVE_UP;
    }
    const rest = withoutTrailingSpaces(match[2] ?? '');
    let value: PlainScalar | undefined;
    if (rest === '') {
      value = null;
    } else if (rest === '|' || rest === '|-') {
      const block = readLiteralBlock(lines, index, { strip: rest === '|-' });
      if (block === GIVE_UP) return GIVE_UP;
      value = block.value;
      index = block.next;
    } else {
      value = readOneLineScalar(rest);
    }
    if (value === undefined) return GIVE_UP;
    mapping[key] = value;
  }
  return Object.keys(mapping).length === 0 ? GIVE_UP : mapping;
}

/** Spaces only (YAML's tab is refused above); U+00A0 and the like are text. */
function isBlank(line: string): boolean {
  return /^ *$/.test(line);
}

function withoutTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return text.slice(0, end);
}

function indentOf(line: string): number {
  let spaces = 0;
  while (line.charCodeAt(spaces) === 32) spaces++;
  return spaces;
}

/** A scalar on the key's line, trailing spaces removed; `undefined` outside the subset. */
function readOneLineScalar(rest: string): PlainScalar | undefined {
  if (rest.startsWith('"')) {
    // Without escapes, a one-line double-quoted scalar is its text as written.
    const inner = rest.slice(1, -1);
    return rest.length >= 2 && rest.endsWith('"') && !/["\\]/.test(inner) ? inner : undefined;
  }
  if (rest.startsWith("'")) {
    if (rest.length < 2 || !rest.endsWith("'")) return undefined;
    const inner = rest.slice(1, -1);
    // Inside single quotes only a doubled quote means something: one quote.
    return inner.replaceAll("''", '').includes("'") ? undefined : inner.replaceAll("''", "'");
  }
  if (NULL_WORDS.has(rest)) return null;
  const boolean = BOOLEAN_WORDS.get(rest);
  if (boolean !== undefined) return boolean;
  if (INDICATOR_OR_NUMBER.test(rest)) return undefined;
  // A comment, a nested key or a trailing colon would change what the line means.
  if (rest.includes(' #') || rest.includes(': ') || rest.endsWith(':')) return undefined;
  return rest;
}

/**
 * A `|` (clip) or `|-` (strip) block whose lines start at `start`: its indentation is the first
 * line's, lines of spaces no longer than it are empty lines, and the block ends at the next line
 * back at column 0. Everything else (a first line that is empty or at column 0, a line of more
 * spaces than the indentation, a line indented less but not at column 0) gives up.
 */
function readLiteralBlock(
  lines: readonly string[],
  start: number,
  options: { strip: boolean },
): { value: string; next: number } | null {
  const first = lines[start];
  if (first === undefined || isBlank(first)) return GIVE_UP;
  const indent = indentOf(first);
  if (indent === 0) return GIVE_UP;
  const content: string[] = [];
  let lastContent = -1;
  let index = start;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    if (isBlank(line)) {
      if (line.length > indent) return GIVE_UP;
      content.push('');
      continue;
    }
    const spaces = indentOf(line);
    if (spaces === 0) break;
    if (spaces < indent) return GIVE_UP;
    content.push(line.slice(indent));
    lastContent = content.length - 1;
  }
  const body = content.slice(0, lastContent + 1).join('\n');
  return { value: options.strip ? body : `${body}\n`, next: index };
}
