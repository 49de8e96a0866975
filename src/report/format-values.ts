/** How numbers print in the console tables and summaries, one rule per kind of value. */

/** Printed for a value nobody knows (a model without a price), never "$None" or 0. */
export const UNKNOWN = '—';

function stripZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * A USD amount as in the reference (0.089, 0.138, 0.0125): four decimals at most from one
 * cent up, three significant digits below so a cheap run never shows as 0; null is unknown.
 */
export function formatCost(cost: number | null): string {
  if (cost === null || !Number.isFinite(cost)) return UNKNOWN;
  if (cost === 0) return '0';
  const magnitude = Math.abs(cost);
  const decimals = magnitude >= 0.01 ? 4 : Math.min(20, -Math.floor(Math.log10(magnitude)) + 2);
  return stripZeros(cost.toFixed(decimals));
}

/**
 * A total over runs of which some had no price: the known part marked as a lower bound, so a
 * partial sum is never read as the whole.
 */
export function formatCostTotal(options: { total: number | null; unknownRuns: number }): string {
  if (options.total === null) return UNKNOWN;
  const text = formatCost(options.total);
  return options.unknownRuns > 0 ? `≥${text}` : text;
}

/** Milliseconds as seconds with one decimal (702 ms → "0.7"). */
export function formatSeconds(ms: number): string {
  if (!Number.isFinite(ms)) return UNKNOWN;
  return (Math.round(ms / 100) / 10).toFixed(1);
}

/** A percentage already rounded to one decimal (66.7 → "66.7%"). */
export function formatPercent(rate: number): string {
  return `${rate.toFixed(1)}%`;
}

/** One decimal, as the reference prints averages (5.5, 8.0). */
export function formatOneDecimal(value: number): string {
  if (!Number.isFinite(value)) return UNKNOWN;
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** A count or token total as a plain integer (the reference prints 46000, no separators). */
export function formatInteger(value: number): string {
  if (!Number.isFinite(value)) return UNKNOWN;
  return String(Math.round(value));
}

/** The model in two lines, provider over model id, as the reference's tables print it. */
export function splitModel(model: string): string[] {
  const colon = model.indexOf(':');
  if (colon <= 0 || colon === model.length - 1) return [model];
  return [model.slice(0, colon), model.slice(colon + 1)];
}
