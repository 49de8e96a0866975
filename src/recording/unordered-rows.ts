/**
 * Row order of an `execute_sql` result is not part of what a recording matches on. SQL without
 * ORDER BY returns rows in whatever order the engine produces them, and parallel engines
 * (DuckDB, PostgreSQL) change it from run to run, notably when runs execute at once (`-t 4`):
 * a replay must not turn stale because two groups swapped places. Which rows the model saw
 * still counts: a preview that shows other rows, or other values, does not match.
 */
import { QUERY_ID_PATTERN } from '../agent/query-results.js';
import { compareCodeUnits } from '../warehouse/index.js';
import { canonicalJson } from './canonical-json.js';

const EMBEDDED_RESULT = '{"id":"query_';

type Json = Record<string, unknown>;

function isQueryResult(value: unknown): value is Json & { rows: unknown[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const candidate = value as Json;
  return (
    typeof candidate.id === 'string' &&
    QUERY_ID_PATTERN.test(candidate.id) &&
    Array.isArray(candidate.columns) &&
    Array.isArray(candidate.rows)
  );
}

function sortedRows(result: Json & { rows: unknown[] }): Json {
  const rows = result.rows.map((row) => ({ row, key: canonicalJson(row) }));
  rows.sort((a, b) => compareCodeUnits(a.key, b.key));
  return { ...result, rows: rows.map((entry) => entry.row) };
}

/** Index just past the JSON object starting at `start` (a `{`), or -1 when it does not close. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth++;
    else if (character === '}' || character === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** Query results written into text (a tool result as JSON text, or restated in a transcript). */
function normalizeText(text: string): unknown {
  if (!text.includes(EMBEDDED_RESULT)) return text;
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      const whole: unknown = JSON.parse(trimmed);
      if (isQueryResult(whole)) return sortedRows(whole);
    } catch {
      // Not JSON as a whole: look for results inside it below.
    }
  }
  let out = '';
  let from = 0;
  for (let start = text.indexOf(EMBEDDED_RESULT); start !== -1; start = text.indexOf(EMBEDDED_RESULT, from)) {
    const end = objectEnd(text, start);
    if (end === -1) break;
    let replacement = text.slice(start, end);
    try {
      const parsed: unknown = JSON.parse(replacement);
      if (isQueryResult(parsed)) replacement = canonicalJson(sortedRows(parsed));
    } catch {
      // Looked like a result but is not JSON: kept as written.
    }
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}

/** A copy of `value` (a message of any provider's shape) with the rows of every query result sorted. */
export function withUnorderedRows(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value);
  if (Array.isArray(value)) return value.map(withUnorderedRows);
  if (typeof value !== 'object' || value === null) return value;
  if (isQueryResult(value)) return sortedRows(value);
  const copy: Json = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withUnorderedRows(item);
  return copy;
}
