/** "results_20250209_143022_2.json" → "2025-02-09 14:30:22 (#2)"; other names as they are. */
export function fileLabel(name: string): string {
  const match = /^results_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})(?:_(\d+))?\.json$/.exec(name);
  if (!match) return name;
  const [, year, month, day, hour, minute, second, sequence] = match;
  return `${year}-${month}-${day} ${hour}:${minute}:${second}${sequence ? ` (#${sequence})` : ''}`;
}
