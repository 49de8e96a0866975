import os from 'node:os';
import { MEMORY_LIMIT_PATTERN } from '../config/schema.js';

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
