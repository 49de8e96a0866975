import { useMemo } from 'preact/hooks';
import type { RunStatus } from '../../../src/results/index.js';
import { RUN_STATUSES } from '../../../src/results/run-status.js';
import type { RunRow } from '../../../src/viewer/api-types.js';
import { costText, integerText, secondsText } from '../../../src/viewer/display-format.js';
import { filterRuns, type RunColumn, type RunSort, sortRuns } from '../../../src/viewer/run-table.js';
import { runHref } from './route.js';
import { StatusBadge } from './status-badge.js';
import { VirtualList } from './virtual-list.js';

const ROW_HEIGHT = 36;

interface ColumnSpec {
  column: RunColumn;
  label: string;
  numeric: boolean;
  width: string;
}

/**
 * The runs table's columns. Each row is a grid of its own (rows are virtualised), so widths are
 * fixed, not sized to content: the status column widens when a judged badge ("✓* passed
 * judged", ~145 px) has to fit, and stays narrow otherwise.
 */
function columnsFor(options: { showAttempt: boolean; showJudged: boolean }): ColumnSpec[] {
  const { showAttempt } = options;
  return [
    { column: 'status', label: 'Status', numeric: false, width: options.showJudged ? '160px' : '112px' },
    { column: 'name', label: 'Test', numeric: false, width: 'minmax(160px, 2fr)' },
    { column: 'model', label: 'Model', numeric: false, width: 'minmax(150px, 1.6fr)' },
    ...(showAttempt ? [{ column: 'attempt' as const, label: 'Attempt', numeric: true, width: '76px' }] : []),
    { column: 'message', label: 'Message', numeric: false, width: 'minmax(160px, 2.2fr)' },
    { column: 'tokens', label: 'Tokens', numeric: true, width: '84px' },
    { column: 'cost', label: 'Cost', numeric: true, width: '88px' },
    { column: 'duration_ms', label: 'Duration', numeric: true, width: '86px' },
    { column: 'tool_call_count', label: 'Tools', numeric: true, width: '64px' },
  ];
}

function cellOf(run: RunRow, column: RunColumn) {
  switch (column) {
    case 'status':
      return <StatusBadge status={run.status} judged={run.judged} />;
    case 'name':
    case 'model':
    case 'message':
      return run[column];
    case 'tokens':
      return integerText(run.tokens);
    case 'cost':
      return costText(run.cost);
    case 'duration_ms':
      return secondsText(run.duration_ms);
    case 'tool_call_count':
      return String(run.tool_call_count);
    case 'attempt':
      return `#${run.attempt}`;
  }
}

export interface RunsFilterState {
  model: string | null;
  status: RunStatus | null;
  search: string;
  sort: RunSort | null;
}

/** Every run of the file: filter by model and status, search by test name, sort by any column. */
export function RunsTable(props: {
  file: string;
  runs: readonly RunRow[];
  models: readonly string[];
  showAttempt: boolean;
  state: RunsFilterState;
  onChange: (state: RunsFilterState) => void;
}) {
  const { state, runs } = props;
  const showJudged = useMemo(() => runs.some((run) => run.judged), [runs]);
  const columns = columnsFor({ showAttempt: props.showAttempt, showJudged });
  const template = columns.map((spec) => spec.width).join(' ');
  const shown = useMemo(() => {
    const filtered = filterRuns(runs, { model: state.model, status: state.status, search: state.search });
    return state.sort ? sortRuns(filtered, state.sort) : filtered;
  }, [runs, state.model, state.status, state.search, state.sort]);
  const statusCounts = useMemo(() => {
    const counts: Record<string, number> = {};
    for (const run of filterRuns(runs, { model: state.model, status: null, search: state.search })) {
      counts[run.status] = (counts[run.status] ?? 0) + 1;
    }
    return counts;
  }, [runs, state.model, state.search]);

  const toggleSort = (column: RunColumn) => {
    const numeric = columns.find((spec) => spec.column === column)?.numeric ?? false;
    // Numbers start with the largest: the slowest or most expensive runs are what one looks for.
    const descending = state.sort?.column === column ? state.sort.direction === 'asc' : numeric;
    props.onChange({ ...state, sort: { column, direction: descending ? 'desc' : 'asc' } });
  };

  return (
    <section class="panel" aria-labelledby="runs-title">
      <div class="panel-head">
        <h2 id="runs-title">Runs</h2>
        <span class="count" data-testid="runs-count">
          {shown.length === runs.length
            ? `${integerText(runs.length)} runs`
            : `${integerText(shown.length)} of ${integerText(runs.length)} runs`}
        </span>
      </div>
      <div class="filters">
        <label class="field grow">
          <span>Search tests</span>
          <input
            type="search"
            placeholder="Test name…"
            value={state.search}
            onInput={(event) =>
              props.onChange({ ...state, search: (event.currentTarget as HTMLInputElement).value })
            }
            data-testid="run-search"
          />
        </label>
        <label class="field">
          <span>Model</span>
          <select
            value={state.model ?? ''}
            onChange={(event) =>
              props.onChange({ ...state, model: (event.currentTarget as HTMLSelectElement).value || null })
            }
            data-testid="model-filter"
          >
            <option value="">All models</option>
            {props.models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Status</span>
          <select
            value={state.status ?? ''}
            onChange={(event) =>
              props.onChange({
                ...state,
                status: ((event.currentTarget as HTMLSelectElement).value || null) as RunStatus | null,
              })
            }
            data-testid="status-filter"
          >
            <option value="">All statuses</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status} ({statusCounts[status] ?? 0})
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="runs-table">
        <VirtualList
          label="Runs"
          items={shown}
          rowHeight={ROW_HEIGHT}
          maxHeight={560}
          resetKey={`${state.model}|${state.status}|${state.search}|${state.sort?.column}|${state.sort?.direction}`}
          header={
            <div class="grid-head sticky" style={{ gridTemplateColumns: template }}>
              {columns.map((spec) => {
                const sorted = state.sort?.column === spec.column ? state.sort.direction : null;
                return (
                  <span key={spec.column} class={spec.numeric ? 'num' : ''}>
                    <button
                      type="button"
                      class="sort-button"
                      onClick={() => toggleSort(spec.column)}
                      data-sort={spec.column}
                      aria-label={`Sort by ${spec.label.toLowerCase()}${sorted === null ? '' : sorted === 'asc' ? ' (ascending now)' : ' (descending now)'}`}
                    >
                      {spec.label}
                      <span class="sort-mark" aria-hidden="true">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                      </span>
                    </button>
                  </span>
                );
              })}
            </div>
          }
          renderRow={(run) => (
            <a
              class={`grid-row run-row run-${run.status}`}
              href={runHref(props.file, run.index)}
              style={{ gridTemplateColumns: template }}
              data-run={run.index}
            >
              {columns.map((spec) => (
                <span
                  key={spec.column}
                  class={`${spec.numeric ? 'num' : 'ellipsis'} col-${spec.column}`}
                  title={spec.column === 'message' || spec.column === 'name' ? run[spec.column] : undefined}
                >
                  {cellOf(run, spec.column)}
                </span>
              ))}
            </a>
          )}
        />
        {shown.length === 0 ? <p class="notice">No run matches these filters.</p> : null}
      </div>
    </section>
  );
}
