/**
 * How the web UI prints numbers. Costs and seconds use the console's rules so both show the
 * same figure for a run; the module is imported from its own file because results/index.ts
 * also exports the Node-only writers, which must stay out of the browser bundle.
 */
export { elapsedMs } from '../number-format/format-values.js';

import {
  formatCost,
  formatJsonForDisplay,
  formatNumber,
  formatSeconds,
  UNKNOWN,
} from '../number-format/format-values.js';

/** "$0.0125" (the console's format); "—" when the model has no price. */
export function costText(cost: number | null): string {
  return formatCost(cost);
}

/** A total over runs of which some had no price: the known part marked as a lower bound. */
export function costTotalText(options: { total: number | null; runsWithoutCost: number }): string {
  const text = costText(options.total);
  return text !== UNKNOWN && options.runsWithoutCost > 0 ? `≥${text}` : text;
}

/** "46,000". */
export function integerText(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : UNKNOWN;
}

/** Milliseconds as "0.7 s" (the console's rounding), and from a minute on as "4 min 10 s" or "8 h 19 min". */
export function secondsText(ms: number): string {
  const text = formatSeconds(ms);
  if (text === UNKNOWN) return UNKNOWN;
  if (ms < 60_000) return `${text} s`;
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

/** "1 run", "3 runs". */
export function countText(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A rate already in percent: "66.7%". */
export function percentText(rate: number): string {
  return Number.isFinite(rate) ? `${rate.toFixed(1)}%` : UNKNOWN;
}

/** "2025-02-09T14:30:22.123000" (local time, as nao writes it) → "2025-02-09 14:30:22". */
export function timestampText(timestamp: string | null): string {
  if (timestamp === null || timestamp === '') return UNKNOWN;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(timestamp);
  return match ? `${match[1]} ${match[2]}` : timestamp;
}

/**
 * A cell value of a data table: NULL spelled out so it is not mistaken for an empty string,
 * doubles with at most 15 significant digits (the file keeps the exact value), strings as given.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return String(value);
  return formatJsonForDisplay(value);
}
