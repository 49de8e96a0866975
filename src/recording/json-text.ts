/**
 * JSON text laid out the way the repository's formatter (Biome, line width 110) lays it out:
 * objects one member per line, arrays on one line when they fit and hold no object, else one
 * element per line. Recordings written so stay byte-identical under `biome format`, and a
 * re-recording shows as a small, readable git diff.
 */
const LINE_WIDTH = 110;
const INDENT = '  ';

/** The value's one-line form, or null when it cannot be on one line (it holds a non-empty object). */
function flat(value: unknown): string | null {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const part = flat(item === undefined ? null : item);
      if (part === null) return null;
      parts.push(part);
    }
    return `[${parts.join(', ')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((item) => item !== undefined) ? null : '{}';
  }
  return scalar(value);
}

/** Biome writes exponents without their `+` (`1e21`, where JSON.stringify gives `1e+21`). */
function scalar(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).replace('e+', 'e') : 'null';
  return JSON.stringify(value) ?? 'null';
}

function layout(value: unknown, indent: string, prefixWidth: number, suffixWidth: number): string {
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const oneLine = flat(value);
    if (oneLine !== null && prefixWidth + width(oneLine) + suffixWidth <= LINE_WIDTH) return oneLine;
    const items = value.map(
      (item, index) =>
        `${inner}${layout(item === undefined ? null : item, inner, inner.length, index < value.length - 1 ? 1 : 0)}`,
    );
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const members = entries.map(([key, item], index) => {
      const head = `${JSON.stringify(key)}: `;
      return `${inner}${head}${layout(item, inner, inner.length + width(head), index < entries.length - 1 ? 1 : 0)}`;
    });
    return `{\n${members.join(',\n')}\n${indent}}`;
  }
  return scalar(value);
}

function width(text: string): number {
  return [...text].length;
}

/** `value` as formatted JSON text with a final newline. */
export function formatJson(value: unknown): string {
  return `${layout(value, '', 0, 0)}\n`;
}
