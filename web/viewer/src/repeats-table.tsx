import type { RepeatStats } from '../../../src/results/index.js';
import { VirtualList } from './virtual-list.js';

const COLUMNS = 'minmax(180px, 2fr) minmax(140px, 1.4fr) 90px 90px 90px 80px';

/** With --repeat: per test and model, c/K passes, pass@k, pass^k and a flaky mark. */
export function RepeatsTable(props: { repeats: readonly RepeatStats[]; repeat: number }) {
  const flaky = props.repeats.filter((entry) => entry.flaky).length;
  return (
    <section class="panel" aria-labelledby="repeats-title">
      <h2 id="repeats-title">Repeated runs</h2>
      <p class="hint">
        Each test ran {props.repeat > 1 ? `${props.repeat} times` : 'several times'} per model. pass@k: chance
        that at least one of k attempts passes; pass^k: chance that all k pass.{' '}
        {flaky > 0 ? `${flaky} flaky (test, model) pair${flaky === 1 ? '' : 's'}.` : 'No flaky pair.'}
      </p>
      <div>
        <VirtualList
          label="Repeated runs"
          items={props.repeats}
          rowHeight={34}
          maxHeight={360}
          header={
            <div class="grid-head sticky" style={{ gridTemplateColumns: COLUMNS }}>
              <span>Test</span>
              <span>Model</span>
              <span class="num">c/K</span>
              <span class="num">pass@k</span>
              <span class="num">pass^k</span>
              <span>Flaky</span>
            </div>
          }
          renderRow={(entry) => (
            <div
              class="grid-row repeat-row"
              style={{ gridTemplateColumns: COLUMNS }}
              data-test={entry.name}
              data-model={entry.model}
            >
              <span class="test-name" title={entry.name}>
                {entry.name}
              </span>
              <span class="ellipsis" title={entry.model}>
                {entry.model}
              </span>
              <span class="num" data-col="ck">
                {entry.passes}/{entry.runs}
              </span>
              <span class="num" data-col="pass-at-k">
                {entry.pass_at_k.toFixed(2)}
              </span>
              <span class="num" data-col="pass-hat-k">
                {entry.pass_hat_k.toFixed(2)}
              </span>
              <span>{entry.flaky ? <span class="flaky-mark">flaky</span> : null}</span>
            </div>
          )}
        />
      </div>
    </section>
  );
}
