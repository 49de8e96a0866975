import type { ModelComparison } from '../../../src/results/index.js';
import { verdictText } from '../../../src/viewer/statistics-text.js';

/**
 * Under Performance by Model: is the best model really ahead of each other one? Paired on the
 * tests both ran, the difference with its 95% interval and the verdict, as the console prints
 * them under its table (`significant` only when the interval excludes 0).
 */
export function ModelComparisons(props: { comparisons: readonly ModelComparison[] }) {
  return (
    <section class="panel" aria-labelledby="comparisons-title">
      <h2 id="comparisons-title">Is the difference real?</h2>
      <p class="hint">
        Each model against the best-ranked one, test by test on the tests both ran: a difference whose 95%
        interval holds 0 is within noise.
      </p>
      <table class="data compact model-comparisons">
        <thead>
          <tr>
            <th>Models</th>
            <th class="num">Difference (95% interval)</th>
            <th class="num">Shared tests</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {props.comparisons.map((comparison) => {
            const text = verdictText({ ...comparison, ci95: comparison.difference_ci95 });
            return (
              <tr
                key={`${comparison.model_a}\n${comparison.model_b}`}
                data-comparison={`${comparison.model_a} vs ${comparison.model_b}`}
              >
                <td>
                  {comparison.model_a} <span class="muted">vs</span> {comparison.model_b}
                </td>
                <td class="num" data-difference>
                  {text.difference ?? '—'}
                </td>
                <td class="num">{comparison.tests}</td>
                <td class={text.tone === 'plain' ? '' : text.tone} data-verdict>
                  {text.verdict}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
