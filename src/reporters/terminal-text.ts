/**
 * Measuring and fitting text for a terminal: a table cell must occupy exactly the columns we
 * counted, whatever a test name or an error message contains (newlines, ANSI codes, CJK, emoji).
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// CSI/OSC escape sequences first (so their parameters do not survive as text), then any
// other C0/C1 control character.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;
const LINE_BREAKS_AND_TABS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const OTHER_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\p{Cf})+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;

/** East Asian Wide and Fullwidth blocks: two terminal columns each. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWideCodePoint(codePoint: number): boolean {
  return WIDE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}

/** One line of plain text, safe for a table cell: no escape sequences, no line breaks. */
export function toCellText(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(LINE_BREAKS_AND_TABS, ' ').replace(OTHER_CONTROLS, '');
}

function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const first = grapheme.codePointAt(0) ?? 0;
  return isWideCodePoint(first) ? 2 : 1;
}

// Printable ASCII is one column per character: the common case needs no segmentation.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const widthCache = new Map<string, number>();
const MAX_CACHED_WIDTHS = 10_000;

/** Terminal columns the text takes (expects text already passed through `toCellText`). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const cached = widthCache.get(text);
  if (cached !== undefined) return cached;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  // Status cells and model names repeat on every row; segmenting them once is enough.
  if (widthCache.size >= MAX_CACHED_WIDTHS) widthCache.clear();
  widthCache.set(text, width);
  return width;
}

/** The text cut to at most `width` columns, ending with "…" when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, width - 1)}…`;
  let kept = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = graphemeWidth(segment);
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

/** The text padded with spaces to exactly `width` columns (it must already fit). */
export function padToWidth(text: string, width: number, align: Align): string {
  const { left, right } = paddingFor(text, width, align);
  return ' '.repeat(left) + text + ' '.repeat(right);
}
