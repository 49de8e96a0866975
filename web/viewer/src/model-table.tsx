import type { ModelSummary } from '../../../src/report/index.js';
import { costTotalText, integerText, percentText, secondsText } from '../../../src/viewer/display-format.js';

const clampPercent = (value: number) => Math.max(0, Math.min(100, value));

/** `44.6–73.7%`, as the terminal's table prints a 95% interval. */
const intervalText = ([low, high]: readonly [number, number]) => `${low.toFixed(1)}–${high.toFixed(1)}%`;

/**
 * Performance by Model, ranked as the file ranks it (pass rate, then cost). A row is a link
 * that filters the whole page to its model; the selected row links back to all models.
 */
export function ModelTable(props: {
  models: readonly ModelSummary[];
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
                title={model.total === 0 ? undefined : `95% interval: ${intervalText(model.pass_rate_ci95)}`}
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
                <span class="rate-text">{model.total === 0 ? '—' : percentText(model.pass_rate)}</span>
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
    </section>
  );
}
