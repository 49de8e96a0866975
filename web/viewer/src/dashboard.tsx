import { useEffect, useMemo, useState } from 'preact/hooks';
import type { FileOverview, RunRow } from '../../../src/viewer/api-types.js';
import { countText } from '../../../src/viewer/display-format.js';
import { filterRuns } from '../../../src/viewer/run-table.js';
import { api } from './api.js';
import { Failure, Loading } from './message-box.js';
import { ModelComparisons } from './model-comparisons.js';
import { ModelTable } from './model-table.js';
import { PassFailGrid } from './pass-fail-grid.js';
import { RepeatsTable } from './repeats-table.js';
import { type DashboardRoute, dashboardHref, replaceHash } from './route.js';
import { RunAgain } from './run-again.js';
import { type RunsFilterState, RunsTable } from './runs-table.js';
import { SummaryCards } from './summary-cards.js';
import { useLoad } from './use-load.js';

/** Test names in the order of their first run. */
function uniqueNames(runs: readonly RunRow[]): string[] {
  return [...new Set(runs.map((run) => run.name))];
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

function FileDashboard(props: { overview: FileOverview; route: DashboardRoute }) {
  const { overview, route } = props;
  const [state, setState] = useState<RunsFilterState>({
    model: route.model,
    status: route.status,
    search: route.search,
    sort: route.sort,
  });
  // The model filter also comes from links (the model table): follow the URL when it changes.
  useEffect(() => {
    setState((previous) => ({ ...previous, model: route.model, status: route.status, sort: route.sort }));
  }, [route.model, route.status, route.sort?.column, route.sort?.direction]);

  const model = state.model !== null && overview.models.includes(state.model) ? state.model : null;
  const modelSummary = model === null ? null : overview.by_model.find((entry) => entry.model === model);
  const runs = overview.runs;
  const gridModels = model === null ? overview.models : [model];
  const repeats = useMemo(
    () => (overview.repeats ?? []).filter((entry) => model === null || entry.model === model),
    [overview.repeats, model],
  );

  // What Run again offers: the runs the filters show (the whole file without filters), and the
  // tests with a failed or errored run.
  const shownTests = useMemo(
    () => uniqueNames(filterRuns(runs, { model, status: state.status, search: state.search })),
    [runs, model, state.status, state.search],
  );
  const failedTests = useMemo(
    () => uniqueNames(runs.filter((run) => run.status === 'failed' || run.status === 'error')),
    [runs],
  );
  const filtered = model !== null || state.status !== null || state.search.trim() !== '';
  const runModels = model === null ? overview.models : [model];

  const change = (next: RunsFilterState) => {
    const href = dashboardHref({ file: overview.name, ...next });
    setState(next);
    if (next.model !== state.model) location.hash = href;
    else replaceHash(href);
  };

  return (
    <>
      {model !== null ? (
        <div class="filter-banner" data-testid="model-banner">
          Showing <strong>{model}</strong> only.{' '}
          <a href={dashboardHref({ file: overview.name, ...state, model: null })}>Show all models</a>
        </div>
      ) : null}
      {overview.interrupted ? (
        <div class="notice notice-warn">This run was interrupted: runs that did not finish are skipped.</div>
      ) : null}
      {overview.recounted !== null ? (
        <div class="notice notice-warn" data-testid="recount-notice">
          {overview.recounted}
        </div>
      ) : null}
      {shownTests.length > 0 || failedTests.length > 0 ? (
        <div class="file-actions">
          {shownTests.length > 0 ? (
            <RunAgain
              key={`shown:${runModels.join(',')}:${shownTests.join('\n')}`}
              tests={shownTests}
              models={runModels}
              label={
                shownTests.length === 1 ? 'Run this test again' : `Run these ${shownTests.length} tests again`
              }
              testId="run-again-shown"
            />
          ) : null}
          {failedTests.length > 0 && !(filtered && sameNames(failedTests, shownTests)) ? (
            <RunAgain
              key={`failed:${failedTests.join('\n')}`}
              tests={failedTests}
              models={overview.models}
              label={`Run the failed ones again (${countText(failedTests.length, 'test')})`}
              testId="run-again-failed"
            />
          ) : null}
        </div>
      ) : null}
      <SummaryCards
        overview={overview}
        summary={modelSummary ?? overview.summary}
        passRate={modelSummary ? modelSummary.pass_rate : overview.pass_rate}
        model={model}
      />
      {overview.by_model.length > 1 ? (
        <ModelTable
          models={overview.by_model}
          recounted={overview.recounted_models}
          selected={model}
          hrefFor={(target) => dashboardHref({ file: overview.name, ...state, model: target })}
        />
      ) : null}
      {overview.by_model.length > 1 && overview.comparisons.length > 0 ? (
        <ModelComparisons comparisons={overview.comparisons} />
      ) : null}
      {overview.models.length > 1 ? (
        <PassFailGrid file={overview.name} tests={overview.tests} models={gridModels} runs={runs} />
      ) : null}
      {repeats.length > 0 ? <RepeatsTable repeats={repeats} repeat={overview.repeat} /> : null}
      <RunsTable
        file={overview.name}
        runs={runs}
        models={overview.models}
        showAttempt={overview.repeat > 1 || runs.some((run) => run.attempt > 1)}
        state={{ ...state, model }}
        onChange={change}
      />
    </>
  );
}

/** The dashboard of one results file (the newest when the URL names none). */
export function Dashboard(props: { route: DashboardRoute; newest: string | null }) {
  const name = props.route.file ?? props.newest;
  const loaded = useLoad(`overview:${name}`, () =>
    name === null ? Promise.reject(new Error('no file')) : api.overview(name),
  );
  if (name === null) {
    return (
      <div class="empty">
        <h2>No results yet</h2>
        <p>
          Run <code>nao test</code> in this project: each run writes a{' '}
          <code>tests/outputs/results_*.json</code> file that appears here.
        </p>
      </div>
    );
  }
  if (loaded.state === 'loading') return <Loading what={name} />;
  if (loaded.state === 'failed') return <Failure message={loaded.error} />;
  return <FileDashboard key={name} overview={loaded.data} route={props.route} />;
}
