/**
 * Trino's client protocol sends BIGINT values as JSON numbers, which JSON.parse rounds beyond
 * 2^53. This parse keeps every integer literal of 16 digits or more as its exact text instead.
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![\d.eE])/g;

export function parseTrinoJson(text: string): unknown {
  const quoted = text.replace(STRING_OR_LONG_INTEGER, (token) =>
    token.startsWith('"') ? token : `"${token}"`,
  );
  return JSON.parse(quoted);
}
