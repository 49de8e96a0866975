import { useMemo } from 'preact/hooks';
import type { HistoryNumbers } from '../../../src/viewer/api-types.js';
import { costText, costTotalText, percentText, timestampText } from '../../../src/viewer/display-format.js';
import { type HistorySeries, historySeries } from '../../../src/viewer/history-series.js';
import { recountText } from '../../../src/viewer/statistics-text.js';
import { api } from './api.js';
import { LineChart, seriesColor } from './line-chart.js';
import { Failure, Loading } from './message-box.js';
import { dashboardHref } from './route.js';
import { useLoad } from './use-load.js';

function shortStamp(timestamp: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(timestamp);
  return match ? `${match[1]}-${match[2]} ${match[3]}:${match[4]}` : timestamp.slice(0, 16);
}

/** A file's (or a model's) pass rate and cost; a recounted rate is marked `*`, the file's number in its title. */
function Numbers(props: { entry: HistoryNumbers | undefined }) {
  const { entry } = props;
  if (entry === undefined || entry.total === 0) return <>—</>;
  const cost = costTotalText({ total: entry.total_cost, runsWithoutCost: entry.runs_without_cost });
  if (!entry.recounted) return <>{`${percentText(entry.pass_rate)} · ${cost}`}</>;
  return (
    <>
      <span
        class="recounted-rate"
        title={recountText({ fileSays: entry.file_says, naoRate: entry.pass_rate })}
        data-file-says={entry.file_says?.pass_rate}
      >
        {percentText(entry.pass_rate)}*
      </span>
      {` · ${cost}`}
    </>
  );
}

function noValueNote(series: readonly HistorySeries[]): string | null {
  const missing = series
    .filter((entry) => entry.values.every((value) => value === null))
    .map((entry) => entry.model);
  return missing.length === 0 ? null : `No known price, so no cost line: ${missing.join(', ')}.`;
}

/** Pass rate and cost of each model across every results file, as charts and as numbers. */
export function HistoryView() {
  const loaded = useLoad('history', () => api.history());
  const data = loaded.state === 'ready' ? loaded.data : null;
  const charts = useMemo(() => {
    if (data === null) return null;
    const passRate = historySeries(data.files, 'pass_rate');
    const cost = historySeries(data.files, 'total_cost');
    const colors = new Map(passRate.map((entry, index) => [entry.model, seriesColor(index)]));
    return { passRate, cost, colors };
  }, [data]);
  if (loaded.state === 'loading') return <Loading what="the history (every results file is read once)" />;
  if (loaded.state === 'failed') return <Failure message={loaded.error} />;
  const { files, unreadable } = loaded.data;
  if (files.length === 0 || charts === null) {
    return (
      <div class="empty">
        <h2>No history yet</h2>
        <p>
          Each <code>nao test</code> run adds a point here.
        </p>
      </div>
    );
  }
  // Both charts plot the same files, in the same colours.
  const axis = {
    colors: charts.colors,
    labels: files.map((file) => shortStamp(file.timestamp)),
    hrefs: files.map((file) => dashboardHref({ file: file.name })),
    pointTitles: files.map((file) => `${timestampText(file.timestamp)} (${file.name})`),
  };
  return (
    <div class="history">
      <h1>History</h1>
      <p class="muted">
        {files.length} results file{files.length === 1 ? '' : 's'}, oldest on the left. Click a point to open
        its run.
      </p>
      {files.some((file) => file.partial.length > 0 || file.by_model.some((entry) => entry.replayed)) ? (
        <p class="muted" data-testid="apart-note">
          Each line joins complete runs of every test. Hollow dashed diamonds are runs set apart (a subset, a
          rerun of failures, a shard, an interrupted or stopped run, or answers replayed from recordings):
          hover one for why.
        </p>
      ) : null}
      <p class="muted">
        The bar through each pass-rate point is its 95% interval: where the rate may really lie, given how
        many tests ran.
      </p>
      {files.some((file) => file.recounted) ? (
        <p class="muted" data-testid="recount-note">
          * Recounted by nao from a results file of the original nao, which counts runs without verification
          as passed; nao does not. Hover a marked number for what the file says.
        </p>
      ) : null}
      <ul class="legend" aria-label="Models">
        {charts.passRate.map((entry) => (
          <li key={entry.model} data-legend={entry.model}>
            <span class="swatch" style={{ background: charts.colors.get(entry.model) }} />
            {entry.model}
            {entry.mock ? (
              <span class="muted"> (mock: answered with each test's reference SQL, no model)</span>
            ) : null}
          </li>
        ))}
      </ul>
      <div class="chart-grid">
        <LineChart
          id="pass-rate"
          title="Pass rate by model"
          series={charts.passRate}
          {...axis}
          format={(value) => `${Math.round(value * 10) / 10}%`}
          max={100}
        />
        <LineChart
          id="cost"
          title="Cost by model (USD, runs with a known price)"
          series={charts.cost}
          {...axis}
          format={(value) => costText(value)}
          note={noValueNote(charts.cost)}
        />
      </div>
      <section class="panel">
        <h2>Numbers</h2>
        <div class="table-scroll">
          <table class="data history-table">
            <thead>
              <tr>
                <th>Run at</th>
                <th>File</th>
                <th class="num">Pass rate · cost</th>
                {charts.passRate.map((entry) => (
                  <th key={entry.model} class="num">
                    {entry.model}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...files].reverse().map((file) => (
                <tr key={file.name} data-file={file.name}>
                  <td>{timestampText(file.timestamp)}</td>
                  <td>
                    <a href={dashboardHref({ file: file.name })}>{file.name}</a>
                    {file.partial.length > 0 ? (
                      <span class="muted" data-partial>
                        {' '}
                        · partial: {file.partial.join(', ')}
                      </span>
                    ) : null}
                  </td>
                  <td class="num">
                    <Numbers entry={file} />
                  </td>
                  {charts.passRate.map((entry) => (
                    <td key={entry.model} class="num" data-model={entry.model}>
                      <Numbers entry={file.by_model.find((candidate) => candidate.model === entry.model)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {unreadable.length > 0 ? (
        <section class="panel">
          <h2>Files that could not be read</h2>
          <ul>
            {unreadable.map((entry) => (
              <li key={entry.name}>
                <strong>{entry.name}</strong>: {entry.error}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
