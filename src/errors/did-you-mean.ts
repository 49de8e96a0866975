/**
 * The known key the user most likely meant by `word`, or null when none is close enough.
 * `synonyms` maps words spelling distance cannot find (`question` → `prompt`); `maxEdits`
 * narrows "close enough" for callers that treat a match as an error rather than a hint.
 */
export function didYouMean(
  word: string,
  known: readonly string[],
  options: { synonyms?: Readonly<Record<string, string>>; maxEdits?: number } = {},
): string | null {
  const lower = word.toLowerCase();
  const synonym = options.synonyms?.[lower.replaceAll('-', '_')];
  if (synonym !== undefined && known.includes(synonym)) return synonym;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Within a third of the length (at least 1, at most 3 edits): `promt`, `sqll`, `Prompt`, `min-count`.
  const allowed = Math.min(options.maxEdits ?? 3, 3, Math.max(1, Math.floor(lower.length / 3)));
  return bestDistance <= allowed ? best : null;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps cost 1. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}
