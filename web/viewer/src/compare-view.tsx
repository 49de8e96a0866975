import type { PairOutcome } from '../../../src/results/index.js';
import type {
  CompareResponse,
  PairCategory,
  RecountedModel,
  ResultsFileEntry,
} from '../../../src/viewer/api-types.js';
import { countText, percentText, timestampText } from '../../../src/viewer/display-format.js';
import { recountText, verdictText } from '../../../src/viewer/statistics-text.js';
import { api } from './api.js';
import { Card } from './card.js';
import { fileLabel } from './file-label.js';
import { Failure, Loading } from './message-box.js';
import { compareHref, runHref } from './route.js';
import { StatusBadge } from './status-badge.js';
import { useLoad } from './use-load.js';
import { VirtualList } from './virtual-list.js';

const COLUMNS = 'minmax(180px, 2fr) minmax(140px, 1.4fr) minmax(150px, 1fr) minmax(150px, 1fr)';

interface Category {
  key: PairCategory;
  /** Its data-category and card id, when not the key. */
  id?: string;
  title: string;
  /** On the count's card, when shorter than the title. */
  cardLabel?: string;
  tone: 'bad' | 'good' | 'plain';
  hint: string;
  /** The list is left out when it has no pair. */
  hiddenWhenEmpty?: boolean;
}

/** The comparison's categories of pairs, in the order the page shows them. */
const CATEGORIES: readonly Category[] = [
  { key: 'regressions', title: 'Regressions', tone: 'bad', hint: 'passed before, not now' },
  { key: 'fixes', title: 'Fixes', tone: 'good', hint: 'did not pass before, pass now' },
  { key: 'unchanged', title: 'Unchanged', tone: 'plain', hint: 'same outcome on both sides' },
  { key: 'added', title: 'Added', tone: 'plain', hint: 'only in the newer file' },
  { key: 'removed', title: 'Removed', tone: 'plain', hint: 'only in the older file' },
  {
    key: 'notRun',
    id: 'not-run',
    title: 'Not run on one side',
    cardLabel: 'Not run',
    tone: 'plain',
    hint: 'skipped, nothing to compare',
    hiddenWhenEmpty: true,
  },
];

function Outcome(props: { outcome: PairOutcome | null; file: string; run: number | null }) {
  const { outcome } = props;
  if (outcome === null) return <span class="muted">—</span>;
  const content = (
    <>
      <StatusBadge status={outcome.status} />
      {outcome.attempts > 1 ? (
        <span class="muted">
          {' '}
          {outcome.passes}/{outcome.runs}
        </span>
      ) : null}
    </>
  );
  return props.run === null ? content : <a href={runHref(props.file, props.run)}>{content}</a>;
}

function PairList(props: { category: Category; comparison: CompareResponse }) {
  const { category, comparison } = props;
  const pairs = comparison[category.key];
  return (
    <section
      class={`panel compare-section tone-${category.tone}`}
      data-category={category.id ?? category.key}
    >
      <div class="panel-head">
        <h2>
          {category.title} <span class="count">{pairs.length}</span>
        </h2>
        <span class="hint">{category.hint}</span>
      </div>
      {pairs.length === 0 ? (
        <p class="notice">None.</p>
      ) : (
        <div>
          <VirtualList
            label={category.title}
            items={pairs}
            rowHeight={36}
            maxHeight={320}
            header={
              <div class="grid-head sticky" style={{ gridTemplateColumns: COLUMNS }}>
                <span>Test</span>
                <span>Model</span>
                <span>Before</span>
                <span>After</span>
              </div>
            }
            renderRow={(pair) => (
              <div
                class="grid-row pair-row"
                style={{ gridTemplateColumns: COLUMNS }}
                data-test={pair.name}
                data-model={pair.model}
              >
                <span class="test-name" title={pair.name}>
                  {pair.name}
                </span>
                <span class="ellipsis" title={pair.model}>
                  {pair.model}
                </span>
                <span data-side="before">
                  <Outcome outcome={pair.before} file={comparison.beforeFile} run={pair.beforeRun} />
                </span>
                <span data-side="after">
                  <Outcome outcome={pair.after} file={comparison.afterFile} run={pair.afterRun} />
                </span>
              </div>
            )}
          />
        </div>
      )}
    </section>
  );
}

function FileSelect(props: {
  label: string;
  value: string;
  files: ResultsFileEntry[];
  onSelect: (name: string) => void;
  testId: string;
}) {
  return (
    <label class="field grow">
      <span>{props.label}</span>
      <select
        value={props.value}
        onChange={(event) => props.onSelect((event.currentTarget as HTMLSelectElement).value)}
        data-testid={props.testId}
      >
        {props.files.map((file) => (
          <option key={file.name} value={file.name}>
            {fileLabel(file.name)} · {file.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A side's pass rate; `*` when nao recounted it from an original nao file, what the file says in its title. */
function SideRate(props: { rate: number | null; recount: RecountedModel | undefined }) {
  if (props.rate === null) return <>—</>;
  if (props.recount === undefined) return <>{percentText(props.rate)}</>;
  return (
    <span
      class="recounted-rate"
      title={recountText({ fileSays: props.recount.file_says, naoRate: props.rate })}
      data-file-says={props.recount.file_says?.pass_rate}
    >
      {percentText(props.rate)}*
    </span>
  );
}

/**
 * Per model, before → after and the paired change with its interval and verdict: the very
 * numbers `nao test diff` prints (both come from compareRunFiles), so the two never disagree.
 */
function ModelRates(props: { comparison: CompareResponse }) {
  const { comparison } = props;
  const recounts = [
    ...comparison.recounted.before.map((entry) => ({ side: 'before', ...entry })),
    ...comparison.recounted.after.map((entry) => ({ side: 'after', ...entry })),
  ];
  return (
    <section class="panel" data-testid="model-rates">
      <h2>Pass rate by model</h2>
      <p class="hint">
        The change is paired on the tests both files ran: a change whose 95% interval holds 0 is within noise.
      </p>
      <table class="data compact">
        <thead>
          <tr>
            <th>Model</th>
            <th class="num">Before</th>
            <th class="num">After</th>
            <th class="num">Change</th>
            <th class="num">Paired change (95% interval)</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {comparison.models.map((entry) => {
            const before = entry.before && entry.before.total > 0 ? entry.before.pass_rate : null;
            const after = entry.after && entry.after.total > 0 ? entry.after.pass_rate : null;
            const delta = before !== null && after !== null ? Math.round((after - before) * 10) / 10 : null;
            const change = entry.change === null ? null : verdictText(entry.change);
            const shared = entry.change === null ? '' : countText(entry.change.tests, 'shared test');
            return (
              <tr key={entry.model} data-model={entry.model}>
                <td>{entry.model}</td>
                <td class="num" data-side="before">
                  <SideRate
                    rate={before}
                    recount={comparison.recounted.before.find((item) => item.model === entry.model)}
                  />
                </td>
                <td class="num" data-side="after">
                  <SideRate
                    rate={after}
                    recount={comparison.recounted.after.find((item) => item.model === entry.model)}
                  />
                </td>
                <td class={`num ${delta === null ? '' : delta > 0 ? 'good' : delta < 0 ? 'bad' : ''}`}>
                  {delta === null
                    ? '—'
                    : `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(1)}`}
                </td>
                <td class="num" data-difference>
                  {change === null ? '—' : `${change.difference ?? '—'} on ${shared}`}
                </td>
                <td class={change === null || change.tone === 'plain' ? '' : change.tone} data-verdict>
                  {change === null ? 'no test ran on both sides' : change.verdict}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {recounts.length > 0 ? (
        <p class="hint" data-testid="compare-recount-note">
          * Recounted by nao: the file counts runs without verification as passed; nao does not.{' '}
          {recounts
            .map((entry) => {
              const model = comparison.models.find((item) => item.model === entry.model);
              const rate = (entry.side === 'before' ? model?.before : model?.after)?.pass_rate ?? 0;
              return `${entry.model} (${entry.side}): ${recountText({ fileSays: entry.file_says, naoRate: rate })}`;
            })
            .join('; ')}
          .
        </p>
      ) : null}
    </section>
  );
}

function Comparison(props: { before: string; after: string }) {
  const loaded = useLoad(`compare:${props.before}:${props.after}`, () =>
    api.compare(props.before, props.after),
  );
  if (loaded.state === 'loading') return <Loading what="the comparison" />;
  if (loaded.state === 'failed') return <Failure message={loaded.error} />;
  const comparison = loaded.data;
  return (
    <>
      <p class="muted">
        {timestampText(comparison.before.timestamp)} → {timestampText(comparison.after.timestamp)}
      </p>
      <section class="cards" aria-label="Comparison counts">
        {CATEGORIES.map((category) => {
          const count = comparison[category.key].length;
          return (
            <Card
              key={category.key}
              id={category.id ?? category.key}
              label={category.cardLabel ?? category.title}
              value={String(count)}
              tone={count > 0 && category.tone !== 'plain' ? category.tone : undefined}
            />
          );
        })}
      </section>
      {comparison.models.length > 0 ? <ModelRates comparison={comparison} /> : null}
      {CATEGORIES.map((category) =>
        category.hiddenWhenEmpty && comparison[category.key].length === 0 ? null : (
          <PairList key={category.key} category={category} comparison={comparison} />
        ),
      )}
    </>
  );
}

/** Two results files side by side: what regressed, what got fixed, what appeared or went away. */
export function CompareView(props: {
  before: string | null;
  after: string | null;
  files: ResultsFileEntry[];
}) {
  const { files } = props;
  if (files.length < 2) {
    return (
      <div class="empty">
        <h2>Nothing to compare yet</h2>
        <p>
          Comparing needs two results files; run <code>nao test</code> again to get a second one.
        </p>
      </div>
    );
  }
  const after = props.after ?? files[0]!.name;
  const before = props.before ?? files.find((file) => file.name !== after)?.name ?? files[1]!.name;
  return (
    <div class="compare">
      <h1>Compare runs</h1>
      <div class="filters">
        <FileSelect
          label="Before"
          value={before}
          files={files}
          onSelect={(name) => {
            location.hash = compareHref(name, after);
          }}
          testId="compare-before"
        />
        <span class="arrow" aria-hidden="true">
          →
        </span>
        <FileSelect
          label="After"
          value={after}
          files={files}
          onSelect={(name) => {
            location.hash = compareHref(before, name);
          }}
          testId="compare-after"
        />
      </div>
      <Comparison before={before} after={after} />
    </div>
  );
}
