/**
 * Measuring and fitting text for a terminal: a table cell must occupy exactly the columns we
 * counted, whatever a test name or an error message contains (newlines, ANSI codes, CJK, emoji).
 */
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';

const LINE_BREAKS_AND_TABS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/g;
// What is left of the C0/C1 controls once the escape sequences are gone (NUL, BEL, a lone ESC…).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const OTHER_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** One line of plain text, safe for a table cell: no escape sequences, no line breaks. */
export function toCellText(text: string): string {
  // Escape sequences go first, so their parameters do not survive as text.
  return stripVTControlCharacters(text).replace(LINE_BREAKS_AND_TABS, ' ').replace(OTHER_CONTROLS, '');
}

// string-width spends about a microsecond per grapheme outside ASCII, and a table measures
// every cell several times: printable ASCII (a column per character) skips it, and other
// widths are remembered, as status cells and model names repeat on every row.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const widths = new Map<string, number>();
const MAX_REMEMBERED_WIDTHS = 10_000;

/** Terminal columns the text takes (expects text already passed through `toCellText`). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = widths.get(text);
  if (width === undefined) {
    if (widths.size >= MAX_REMEMBERED_WIDTHS) widths.clear();
    width = stringWidth(text);
    widths.set(text, width);
  }
  return width;
}

/** The text cut to at most `width` columns, ending with "…" when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, width - 1)}…`;
  let kept = '';
  let used = 0;
  // Whole graphemes only: an emoji or an accented letter is never split.
  for (const { segment } of segmenter.segment(text)) {
    const next = stringWidth(segment);
    if (used + next > width - 1) break;
    kept += segment;
    used += next;
  }
  return `${kept}…`;
}

export type Align = 'left' | 'right' | 'center';

/** Spaces to put left and right of the text so it fills exactly `width` columns. */
export function paddingFor(text: string, width: number, align: Align): { left: number; right: number } {
  const room = Math.max(0, width - displayWidth(text));
  if (align === 'right') return { left: room, right: 0 };
  if (align === 'center') {
    const left = Math.floor(room / 2);
    return { left, right: room - left };
  }
  return { left: 0, right: room };
}
