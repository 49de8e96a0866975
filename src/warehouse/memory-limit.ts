import os from 'node:os';

/** A share of the machine's memory (`25%`) or a size (`4GB`, `512MiB`), as DuckDB spells sizes. */
export const MEMORY_LIMIT_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(%|B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i;

/**
 * DuckDB's `memory_limit` setting for `agent.query_memory_limit`: a share of the machine's
 * memory (`25%`, which DuckDB's own setting does not accept) becomes bytes, a size (`4GB`,
 * `512MiB`) is DuckDB's own spelling. The config schema has checked the spelling already.
 */
export function duckDbMemoryLimit(spelling: string, totalBytes: number = os.totalmem()): string {
  const match = MEMORY_LIMIT_PATTERN.exec(spelling);
  if (match === null) throw new Error(`not a memory limit: ${JSON.stringify(spelling)}`);
  const amount = Number(match[1]);
  const unit = match[2]!;
  if (unit === '%') return `${Math.max(1, Math.floor((totalBytes * amount) / 100))}B`;
  return `${amount}${unit}`;
}
