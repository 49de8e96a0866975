/** How numbers print for people (terminal, viewer, chat), one rule per kind of value. */

/** Printed for a value nobody knows (a model without a price), never "$None" or 0. */
export const UNKNOWN = '—';

function stripZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * A USD amount, the one cost format of every output (terminal, viewer, chat): "$" and four
 * decimals at most from one cent up ($0.089, $1.6716), three significant digits below so a
 * cheap run never shows as $0 ($0.00224); null is unknown.
 */
export function formatCost(cost: number | null): string {
  if (cost === null || !Number.isFinite(cost)) return UNKNOWN;
  if (cost === 0) return '$0';
  const magnitude = Math.abs(cost);
  const decimals = magnitude >= 0.01 ? 4 : Math.min(20, -Math.floor(Math.log10(magnitude)) + 2);
  const text = stripZeros(magnitude.toFixed(decimals));
  return cost < 0 ? `-$${text}` : `$${text}`;
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

/** Significant digits a double is shown with: its 16th and 17th digits are binary noise (0.1 + 0.2). */
const SHOWN_DIGITS = 15;

/**
 * A number as a person reads it: integers up to 2^53 exactly, other doubles with at most 15
 * significant digits (41226.65000000001 → "41226.65", 0.1 + 0.2 → "0.3"). Only for display:
 * the results file keeps the exact value.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isSafeInteger(value)) return String(value);
  // -0 prints as "0", as String does.
  return String(Number(value.toPrecision(SHOWN_DIGITS)));
}

/** JSON of an array or struct cell with its numbers shown as `formatNumber` shows them. */
export function formatJsonForDisplay(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner === 'bigint') return inner.toString();
      return typeof inner === 'number' && Number.isFinite(inner) && !Number.isSafeInteger(inner)
        ? Number(inner.toPrecision(SHOWN_DIGITS))
        : inner;
    });
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Wall-clock time between two nao timestamps ("2025-02-09T14:30:22.123000", local time), or
 * null when either is missing or unreadable.
 */
export function elapsedMs(startedAt: string | null, finishedAt: string | null): number | null {
  if (startedAt === null || finishedAt === null) return null;
  const start = Date.parse(startedAt.slice(0, 23));
  const end = Date.parse(finishedAt.slice(0, 23));
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? end - start : null;
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

/** A 95% interval of a rate, without its unit: `44.6–73.7`. */
export function formatInterval([low, high]: readonly [number, number]): string {
  return `${low.toFixed(1)}–${high.toFixed(1)}`;
}

/** A rate with its 95% interval: `60.0% (44.6–73.7)`; `mark` goes right after the rate (`25.0%*`). */
export function formatPercentWithInterval(
  rate: number,
  ci95: readonly [number, number],
  options: { mark?: string } = {},
): string {
  return `${formatPercent(rate)}${options.mark ?? ''} (${formatInterval(ci95)})`;
}

/** A difference in points with its interval: `+35.0 points (20.0 to 50.0)`. */
export function formatPointsWithInterval(points: number, ci95: readonly [number, number]): string {
  const signed = (value: number) =>
    value > 0 ? `+${value.toFixed(1)}` : value < 0 ? `−${Math.abs(value).toFixed(1)}` : '±0.0';
  return `${signed(points)} points (95% CI ${signed(ci95[0])} to ${signed(ci95[1])})`;
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
