import type { Summary } from '../../../src/results/index.js';
import type { FileOverview } from '../../../src/viewer/api-types.js';
import {
  costText,
  costTotalText,
  countText,
  elapsedMs,
  integerText,
  percentText,
  secondsText,
  timestampText,
} from '../../../src/viewer/display-format.js';
import { Card } from './card.js';

function passRateTone(summary: Summary): string | undefined {
  if (summary.total === 0) return undefined;
  if (summary.passed === summary.total) return 'good';
  return summary.passed * 2 >= summary.total ? 'warn' : 'bad';
}

/**
 * How long the run took: the wall clock from the file's start to its finish. Runs overlap
 * (--concurrency), so their summed time is not how long one waited; it stays as a line of its
 * own, named as a sum. A file without start and finish times (older nao, the original) and a
 * view filtered to one model (whose runs interleave with the others') show the sum, labelled so.
 */
function DurationCard(props: { summary: Summary; wallClock: number | null; model: string | null }) {
  const { summary, wallClock, model } = props;
  const summed = secondsText(summary.total_duration_ms);
  const average = `avg ${secondsText(summary.avg_duration_ms)} per run`;
  if (wallClock !== null && model === null) {
    return (
      <Card
        id="duration"
        label="Wall clock"
        value={secondsText(wallClock)}
        detail={[`${summed} summed run time`, average]}
      />
    );
  }
  const why =
    wallClock !== null
      ? `the whole file took ${secondsText(wallClock)}`
      : 'the file records no start and finish times';
  return (
    <Card id="duration" label="Run time (sum)" value={summed} detail={[`runs added up; ${why}`, average]} />
  );
}

/** The dashboard's headline numbers, for the whole file or for the model it is filtered to. */
export function SummaryCards(props: {
  overview: FileOverview;
  summary: Summary;
  passRate: number;
  model: string | null;
}) {
  const { overview, summary, model } = props;
  const wallClock = elapsedMs(overview.started_at, overview.finished_at);
  // The file's `failed` counts every run that did not pass (errors and unverified ones too).
  const judgedFailed = summary.failed - summary.errors - summary.unverified;
  const costDetails = [
    summary.runs_without_cost > 0 ? `${countText(summary.runs_without_cost, 'run')} without a price` : null,
    summary.total_extraction_cost !== null ? `+ ${costText(summary.total_extraction_cost)} extraction` : null,
    summary.total_judge_cost != null ? `+ ${costText(summary.total_judge_cost)} judge` : null,
  ];
  const runDetails = [
    overview.interrupted ? 'interrupted' : null,
    overview.nao_version ? `nao ${overview.nao_version}` : null,
  ];
  return (
    <section class="cards" aria-label="Summary">
      <Card
        id="pass-rate"
        label="Pass rate"
        value={summary.total === 0 ? '—' : percentText(props.passRate)}
        detail={[
          `${integerText(summary.passed)} of ${integerText(summary.total)} runs`,
          // Judged passes rest on a judge model's grading of the text: never show them as data-verified.
          (summary.judged ?? 0) > 0
            ? `${integerText(summary.judged_passed ?? 0)} of the passes judged by a model`
            : null,
        ]}
        tone={passRateTone(summary)}
      />
      <Card id="passed" label="Passed" value={integerText(summary.passed)} tone="good" />
      <Card
        id="failed"
        label="Failed"
        value={integerText(judgedFailed)}
        tone={judgedFailed > 0 ? 'bad' : undefined}
      />
      <Card
        id="errors"
        label="Errors"
        value={integerText(summary.errors)}
        tone={summary.errors > 0 ? 'warn' : undefined}
      />
      <Card id="unverified" label="Unverified" value={integerText(summary.unverified)} />
      <Card
        id="total"
        label="Total runs"
        value={integerText(summary.total)}
        detail={summary.skipped > 0 ? `+ ${summary.skipped} skipped` : null}
      />
      <Card
        id="models"
        label="Models"
        value={model === null ? integerText(overview.models.length) : '1'}
        detail={model === null ? null : `of ${overview.models.length}: ${model}`}
      />
      <Card id="tokens" label="Tokens" value={integerText(summary.total_tokens)} />
      <Card
        id="cost"
        label="Cost"
        value={costTotalText({ total: summary.total_cost, runsWithoutCost: summary.runs_without_cost })}
        detail={costDetails}
      />
      <DurationCard summary={summary} wallClock={wallClock} model={model} />
      <Card
        id="tool-calls"
        label="Tool calls"
        value={integerText(summary.total_tool_calls)}
        detail={`avg ${summary.avg_tool_calls.toFixed(1)} per run`}
      />
      <Card id="run-at" label="Run at" value={timestampText(overview.timestamp)} detail={runDetails} />
    </section>
  );
}
