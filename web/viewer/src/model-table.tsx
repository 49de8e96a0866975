import type { ModelSummary } from '../../../src/results/index.js';
import type { RecountedModel } from '../../../src/viewer/api-types.js';
import { costTotalText, integerText, percentText, secondsText } from '../../../src/viewer/display-format.js';
import { intervalText, recountText } from '../../../src/viewer/statistics-text.js';

const clampPercent = (value: number) => Math.max(0, Math.min(100, value));

/**
 * Performance by Model, ranked as the file ranks it (pass rate, then cost). A row is a link
 * that filters the whole page to its model; the selected row links back to all models. A rate
 * nao recounted from an original nao file is marked `*`, with what the file says.
 */
export function ModelTable(props: {
  models: readonly ModelSummary[];
  /** The models whose rate differs from what the file says. */
  recounted: readonly RecountedModel[];
  selected: string | null;
  hrefFor: (model: string | null) => string;
}) {
  return (
    <section class="panel" aria-labelledby="models-title">
      <h2 id="models-title">Performance by Model</h2>
      <p class="hint">Click a model to filter the page to its runs.</p>
      <div class="grid-table model-table">
        <div class="grid-head">
          <span>Model</span>
          <span>Pass rate</span>
          <span class="num">Passed</span>
          <span class="num">Tokens</span>
          <span class="num">Cost</span>
          <span class="num">Avg time</span>
          <span class="num">Avg tools</span>
        </div>
        {props.models.map((model) => {
          const selected = props.selected === model.model;
          const recount = props.recounted.find((entry) => entry.model === model.model);
          const recountNote =
            recount === undefined
              ? null
              : recountText({ fileSays: recount.file_says, naoRate: model.pass_rate });
          return (
            <a
              key={model.model}
              class={`grid-row model-row ${selected ? 'selected' : ''}`}
              href={props.hrefFor(selected ? null : model.model)}
              aria-current={selected ? 'true' : undefined}
              data-model={model.model}
            >
              <span class="model-name">{model.model}</span>
              <span
                class="rate-cell"
                title={
                  model.total === 0
                    ? undefined
                    : `95% interval: ${intervalText(model.pass_rate_ci95)}${recountNote === null ? '' : ` · * ${recountNote}`}`
                }
              >
                <span class="rate-bar" aria-hidden="true">
                  <span class="rate-fill" style={{ width: `${clampPercent(model.pass_rate)}%` }} />
                  {model.total === 0 ? null : (
                    // The error bar: where the pass rate may really lie, given this many tests.
                    <span
                      class="rate-ci-bar"
                      style={{
                        left: `${clampPercent(model.pass_rate_ci95[0])}%`,
                        width: `${clampPercent(model.pass_rate_ci95[1]) - clampPercent(model.pass_rate_ci95[0])}%`,
                      }}
                    />
                  )}
                </span>
                <span class="rate-text">
                  {model.total === 0 ? '—' : percentText(model.pass_rate)}
                  {recount === undefined ? null : (
                    <span class="recount-mark" data-file-says={recount.file_says?.pass_rate}>
                      *
                    </span>
                  )}
                </span>
              </span>
              <span class="num">
                {integerText(model.passed)}/{integerText(model.total)}
              </span>
              <span class="num">{integerText(model.total_tokens)}</span>
              <span class="num">
                {costTotalText({ total: model.total_cost, runsWithoutCost: model.runs_without_cost })}
              </span>
              <span class="num">{secondsText(model.avg_duration_ms)}</span>
              <span class="num">{model.avg_tool_calls.toFixed(1)}</span>
            </a>
          );
        })}
      </div>
      {props.recounted.length > 0 ? (
        <p class="hint" data-testid="model-recount-note">
          * Recounted by nao: this file counts runs without verification as passed; nao does not.{' '}
          {props.recounted
            .map((entry) => {
              const rate = props.models.find((model) => model.model === entry.model)?.pass_rate ?? 0;
              return `${entry.model}: ${recountText({ fileSays: entry.file_says, naoRate: rate })}`;
            })
            .join('; ')}
          .
        </p>
      ) : null}
    </section>
  );
}
