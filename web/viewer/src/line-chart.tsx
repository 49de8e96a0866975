import { type HistorySeries, niceTicks } from '../../../src/viewer/history-series.js';
import { intervalText, recountText } from '../../../src/viewer/statistics-text.js';

/** Distinct on white and for the common colour blindnesses (Okabe–Ito, then a few more). */
const SERIES_COLORS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#6a3d9a',
  '#7f7f7f',
  '#b15928',
  '#1b9e77',
];

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length]!;
}

const WIDTH = 760;
const HEIGHT = 260;
const PAD = { left: 64, right: 24, top: 14, bottom: 40 };
/** Keeps the first and last points (and their labels) off the axis and the edge. */
const INSET = 40;
/**
 * What an x label takes up, in the chart's own units: the SVG scales as a whole, so labels that
 * clear each other here clear each other at every screen width. Generous for the 12 px font's
 * digits (~6.7 units each), plus a gap.
 */
const LABEL_CHAR_WIDTH = 7.5;
const LABEL_GAP = 14;

/**
 * Which x labels to draw: every `step`-th, `step` the fewest files whose spacing holds the
 * widest label, and the newest always (it replaces the thinned one before it when they would
 * touch).
 */
function xLabelIndexes(options: { count: number; spacing: number; labelWidth: number }): number[] {
  const { count, spacing, labelWidth } = options;
  if (count <= 1) return count === 1 ? [0] : [];
  const room = labelWidth + LABEL_GAP;
  const step = Math.max(1, Math.ceil(room / spacing));
  const shown: number[] = [];
  for (let index = 0; index < count; index += step) shown.push(index);
  const last = count - 1;
  if (shown.at(-1) !== last) {
    if (shown.length > 1 && (last - shown.at(-1)!) * spacing < room) shown.pop();
    shown.push(last);
  }
  return shown;
}

/** A diamond of radius 6 around (cx, cy), as an SVG path. */
function diamond(cx: number, cy: number): string {
  return `M${cx.toFixed(1)},${(cy - 6).toFixed(1)} L${(cx + 6).toFixed(1)},${cy.toFixed(1)} L${cx.toFixed(1)},${(cy + 6).toFixed(1)} L${(cx - 6).toFixed(1)},${cy.toFixed(1)} Z`;
}

/** Half the width of an error bar's caps, in the chart's units. */
const CAP = 4;

/**
 * A vertical error bar from the interval's low to its high, with caps: where the pass rate may
 * really lie given this many tests. Drawn under the point, so the point stays clickable.
 */
function ErrorBar(props: {
  cx: number;
  /** The interval in percent, and where its ends fall on the chart. */
  interval: readonly [number, number];
  low: number;
  high: number;
  color: string;
  label: string;
}) {
  const { cx, low, high } = props;
  return (
    <g
      class="error-bar"
      data-low={props.interval[0]}
      data-high={props.interval[1]}
      stroke={props.color}
      stroke-width="1.5"
    >
      <title>{props.label}</title>
      <line class="error-bar-span" x1={cx} x2={cx} y1={high} y2={low} />
      <line x1={cx - CAP} x2={cx + CAP} y1={high} y2={high} />
      <line x1={cx - CAP} x2={cx + CAP} y1={low} y2={low} />
    </g>
  );
}

/**
 * An inline SVG line chart: one line per series over the files (oldest left), gaps where a
 * value is missing, each point a link to its file with a tooltip giving the exact value, and
 * where the series carry them, its 95% interval as an error bar and a `*` on a number nao
 * recounted from an original nao file (the tooltip says what the file says).
 */
export function LineChart(props: {
  id: string;
  title: string;
  series: readonly HistorySeries[];
  colors: ReadonlyMap<string, string>;
  labels: readonly string[];
  hrefs: readonly string[];
  pointTitles: readonly string[];
  format: (value: number) => string;
  /** Fixed top of the value axis (100 for a percentage); otherwise from the data. */
  max?: number;
  /** Said under the chart, e.g. which models have no value at all. */
  note?: string | null;
}) {
  const count = props.labels.length;
  const values = props.series
    .flatMap((entry) => [...entry.values, ...entry.marked.map((mark) => mark?.value ?? null)])
    .filter((value): value is number => value !== null);
  const ticks = niceTicks(props.max ?? Math.max(0, ...values), 5);
  const top = ticks.at(-1) ?? 1;
  const plotWidth = WIDTH - PAD.left - PAD.right - 2 * INSET;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) =>
    PAD.left + INSET + (count <= 1 ? plotWidth / 2 : (index * plotWidth) / (count - 1));
  const y = (value: number) => PAD.top + plotHeight - (Math.max(0, value) / top) * plotHeight;
  const shownLabels = new Set(
    xLabelIndexes({
      count,
      spacing: count <= 1 ? plotWidth : plotWidth / (count - 1),
      labelWidth: Math.max(0, ...props.labels.map((label) => label.length)) * LABEL_CHAR_WIDTH,
    }),
  );

  return (
    <figure class="chart" data-chart={props.id}>
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={props.title} class="chart-svg">
        {ticks.map((tick) => (
          <g key={tick} class="tick">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 8} y={y(tick) + 4} text-anchor="end">
              {props.format(tick)}
            </text>
          </g>
        ))}
        {props.labels.map((label, index) =>
          shownLabels.has(index) ? (
            <text key={index} class="x-label" x={x(index)} y={HEIGHT - PAD.bottom + 18} text-anchor="middle">
              {label}
            </text>
          ) : null,
        )}
        {props.series.map((entry) => {
          const color = props.colors.get(entry.model) ?? '#333';
          // One path; a missing value ends a subpath and the next value starts one ("M"), leaving a
          // gap. A point set apart (marked) is stepped over: the line joins the runs on either side.
          const joined = (index: number): boolean => {
            let previous = index - 1;
            while (previous >= 0 && entry.marked[previous] != null) previous--;
            return previous >= 0 && entry.values[previous] != null;
          };
          // What a point's tooltip adds to its value: the interval, and a recount with the file's number.
          const extra = (index: number, value: number): string => {
            const interval = entry.intervals[index];
            const recount = entry.recounts[index];
            return (
              (interval ? ` (95% interval: ${intervalText(interval)})` : '') +
              (recount ? ` — * ${recountText({ fileSays: recount.fileSays, naoRate: value })}` : '')
            );
          };
          const pointValue = (index: number) => entry.values[index] ?? entry.marked[index]?.value ?? null;
          const line = entry.values
            .map((value, index) =>
              value === null
                ? ''
                : `${joined(index) ? 'L' : 'M'}${x(index).toFixed(1)},${y(value).toFixed(1)} `,
            )
            .join('');
          return (
            <g key={entry.model} class="series" data-series={entry.model}>
              {line === '' ? null : (
                <path class="series-line" d={line} stroke={color} fill="none" stroke-width="2" />
              )}
              {entry.intervals.map((interval, index) => {
                const value = pointValue(index);
                return interval === null || value === null ? null : (
                  <ErrorBar
                    key={`ci-${index}`}
                    cx={x(index)}
                    interval={interval}
                    low={y(interval[0])}
                    high={y(interval[1])}
                    color={color}
                    label={`${entry.model} · ${props.pointTitles[index] ?? ''}: 95% interval ${intervalText(interval)}`}
                  />
                );
              })}
              {entry.recounts.map((recount, index) => {
                const value = pointValue(index);
                return recount === null || value === null ? null : (
                  <text
                    key={`recount-${index}`}
                    class="recount-mark"
                    x={x(index) + 7}
                    y={y(value) - 5}
                    fill={color}
                    data-file-says={recount.fileSays?.pass_rate}
                  >
                    *<title>{recountText({ fileSays: recount.fileSays, naoRate: value })}</title>
                  </text>
                );
              })}
              {entry.values.map((value, index) =>
                value === null ? null : (
                  <a key={index} href={props.hrefs[index]}>
                    <circle
                      cx={x(index)}
                      cy={y(value)}
                      r="4"
                      fill="#fff"
                      stroke={color}
                      stroke-width="2"
                      data-value={value}
                      data-recounted={entry.recounts[index] ? 'true' : undefined}
                    >
                      <title>{`${entry.model} · ${props.pointTitles[index] ?? ''}: ${props.format(value)}${extra(index, value)}`}</title>
                    </circle>
                  </a>
                ),
              )}
              {entry.marked.map((mark, index) =>
                mark === null ? null : (
                  // A hollow dashed diamond, never joined to the line: a partial run or replayed answers.
                  <a key={`marked-${index}`} href={props.hrefs[index]}>
                    <path
                      class="apart-point"
                      d={diamond(x(index), y(mark.value))}
                      fill="#fff"
                      stroke={color}
                      stroke-width="2"
                      stroke-dasharray="2 2"
                      data-value={mark.value}
                      data-apart={mark.reason}
                      data-recounted={entry.recounts[index] ? 'true' : undefined}
                    >
                      <title>{`${entry.model} · ${props.pointTitles[index] ?? ''}: ${props.format(mark.value)}${extra(index, mark.value)} — not on the line: ${mark.reason}`}</title>
                    </path>
                  </a>
                ),
              )}
            </g>
          );
        })}
      </svg>
      {props.note ? <p class="chart-note">{props.note}</p> : null}
    </figure>
  );
}
