import { useMemo } from 'preact/hooks';
import { groupByPair, pairKey } from '../../../src/results/run-pairs.js';
import { STATUS_MARK } from '../../../src/results/run-status.js';
import type { RunRow } from '../../../src/viewer/api-types.js';
import { secondsText } from '../../../src/viewer/display-format.js';
import { runHref } from './route.js';
import { StatusBadge } from './status-badge.js';
import { VirtualList } from './virtual-list.js';

const ROW_HEIGHT = 40;

function ModelHeader(props: { model: string }) {
  const colon = props.model.indexOf(':');
  if (colon <= 0) return <span class="model-head">{props.model}</span>;
  return (
    <span class="model-head" title={props.model}>
      <span class="model-provider">{props.model.slice(0, colon)}</span>
      <span class="model-id">{props.model.slice(colon + 1)}</span>
    </span>
  );
}

function GridCell(props: { file: string; runs: readonly RunRow[] | undefined; test: string; model: string }) {
  const runs = props.runs ?? [];
  const label = `${props.test} with ${props.model}`;
  if (runs.length === 0) {
    return (
      <span class="grid-cell cell-empty" title={`${label}: not run`} data-status="none">
        —
      </span>
    );
  }
  if (runs.length === 1) {
    const run = runs[0]!;
    return (
      <a
        class={`grid-cell cell-${run.status}`}
        href={runHref(props.file, run.index)}
        title={`${label}: ${run.status} — ${run.message}`}
        data-run={run.index}
        data-status={run.status}
      >
        <StatusBadge status={run.status} compact judged={run.judged} />
        <span class="cell-duration">{secondsText(run.duration_ms)}</span>
      </a>
    );
  }
  const ran = runs.filter((run) => run.status !== 'skipped');
  const passes = ran.filter((run) => run.status === 'passed').length;
  const tone =
    ran.length === 0 ? 'skipped' : passes === ran.length ? 'passed' : passes === 0 ? 'failed' : 'flaky';
  const average = ran.length === 0 ? 0 : ran.reduce((sum, run) => sum + run.duration_ms, 0) / ran.length;
  return (
    <span
      class={`grid-cell cell-${tone}`}
      title={`${label}: ${passes}/${ran.length} passed`}
      data-status={tone}
    >
      <span class="cell-count">
        {passes}/{ran.length}
        {tone === 'flaky' ? <span class="flaky-mark">flaky</span> : null}
      </span>
      <span class="attempts">
        {runs.map((run) => (
          <a
            key={run.index}
            class={`attempt attempt-${run.status}`}
            href={runHref(props.file, run.index)}
            title={`attempt ${run.attempt}: ${run.status} — ${run.message}`}
            data-run={run.index}
          >
            {STATUS_MARK[run.status]}
          </a>
        ))}
      </span>
      <span class="cell-duration">{secondsText(average)}</span>
    </span>
  );
}

/** Pass / Fail by Test and Model: one row per test, one column per model; a cell opens its run. */
export function PassFailGrid(props: {
  file: string;
  tests: readonly string[];
  models: readonly string[];
  runs: readonly RunRow[];
}) {
  const byPair = useMemo(() => groupByPair(props.runs), [props.runs]);
  const columns = `minmax(180px, 2fr) repeat(${props.models.length}, minmax(130px, 1fr))`;
  return (
    <section class="panel" aria-labelledby="grid-title">
      <h2 id="grid-title">Pass / Fail by Test and Model</h2>
      <div class="pass-fail">
        <VirtualList
          label="Tests by model"
          items={props.tests}
          rowHeight={ROW_HEIGHT}
          maxHeight={420}
          header={
            <div class="grid-head sticky" style={{ gridTemplateColumns: columns }}>
              <span>Test</span>
              {props.models.map((model) => (
                <span key={model}>
                  <ModelHeader model={model} />
                </span>
              ))}
            </div>
          }
          renderRow={(test) => (
            <div class="grid-row" style={{ gridTemplateColumns: columns }} data-test={test}>
              <span class="test-name" title={test}>
                {test}
              </span>
              {props.models.map((model) => (
                <GridCell
                  key={model}
                  file={props.file}
                  runs={byPair.get(pairKey({ name: test, model }))}
                  test={test}
                  model={model}
                />
              ))}
            </div>
          )}
        />
      </div>
    </section>
  );
}
