import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { JudgeRecord, RunDetails, UsageRecord } from '../../../src/results/index.js';
import type { RunDetailResponse } from '../../../src/viewer/api-types.js';
import { diffHighlights } from '../../../src/viewer/diff-highlights.js';
import { costText, countText, integerText, secondsText } from '../../../src/viewer/display-format.js';
import { formatSql } from '../../shared/format-sql.js';
import { api } from './api.js';
import { Card, type CardProps } from './card.js';
import { DataComparison } from './data-comparison.js';
import { DiffView } from './diff-view.js';
import { Failure, Loading } from './message-box.js';
import { dashboardHref, runHref } from './route.js';
import { RunAgain } from './run-again.js';
import { StatusBadge } from './status-badge.js';
import { ToolCallView } from './tool-call-view.js';
import { useLoad } from './use-load.js';

function Section(props: {
  title: string;
  id: string;
  children: ComponentChildren;
  aside?: ComponentChildren;
}) {
  return (
    <section class="panel detail-section" aria-labelledby={`${props.id}-title`} data-section={props.id}>
      <div class="panel-head">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        {props.aside ? <span class="count">{props.aside}</span> : null}
      </div>
      {props.children}
    </section>
  );
}

/**
 * What the judge model said of a test with `expected_answer`: a judged verdict rests on its
 * grading of the text, not on data, and says so.
 */
function JudgeSection(props: { details: RunDetails; judge: JudgeRecord }) {
  const { details, judge } = props;
  const verdict = judge.verdict === null ? 'no verdict' : judge.verdict === 'pass' ? 'pass' : 'fail';
  return (
    <Section id="judge" title="Judged answer" aside={`graded by ${judge.model}, not by data`}>
      <dl class="judge" data-testid="judge">
        <dt>Expected answer</dt>
        <dd>
          <pre class="prose">{details.expected_answer ?? '(not saved)'}</pre>
        </dd>
        <dt>Verdict</dt>
        <dd data-testid="judge-verdict">{verdict}</dd>
        <dt>Reason</dt>
        <dd data-testid="judge-reason">{judge.error ?? (judge.reason || '(none given)')}</dd>
        <dt>Judge tokens</dt>
        <dd>
          {integerText(judge.usage.total_tokens)}
          {judge.cost === null ? ' · no price for this model' : ` · ${costText(judge.cost)}`}
        </dd>
      </dl>
    </Section>
  );
}

/** A run's metric: a card named by `data-metric`, not `data-card`. */
function Metric(props: Omit<CardProps, 'idAttribute'>) {
  return <Card {...props} idAttribute="data-metric" />;
}

function usageDetail(usage: UsageRecord | null): CardProps['detail'] {
  if (usage === null) return null;
  return [
    `${integerText(usage.input_total_tokens)} in`,
    `${integerText(usage.output_total_tokens)} out`,
    usage.input_cache_read_tokens > 0 ? `${integerText(usage.input_cache_read_tokens)} cached` : null,
    usage.output_reasoning_tokens > 0 ? `${integerText(usage.output_reasoning_tokens)} reasoning` : null,
  ];
}

/** A link to the previous or next run, greyed out at either end. */
function StepLink(props: { href: string | null; label: string }) {
  return props.href === null ? (
    <span class="muted">{props.label}</span>
  ) : (
    <a href={props.href}>{props.label}</a>
  );
}

function RunView(props: { response: RunDetailResponse }) {
  const { file, index, total, run } = props.response;
  const details = run.details;
  const highlights = useMemo(() => diffHighlights(details.diff), [details.diff]);
  const extractionTokens = details.extraction_usage?.total_tokens ?? null;
  const costBreakdown = details.cost_breakdown;
  return (
    <article class="run-detail" data-run={index}>
      <nav class="crumbs" aria-label="Run navigation">
        <a href={dashboardHref({ file })}>← {file}</a>
        <span class="crumb-nav">
          <StepLink href={index > 0 ? runHref(file, index - 1) : null} label="‹ Previous run" />
          <span class="muted">
            run {index + 1} of {total}
          </span>
          <StepLink href={index + 1 < total ? runHref(file, index + 1) : null} label="Next run ›" />
        </span>
      </nav>
      <header class="run-head">
        <h1>
          <span data-testid="run-name">{run.name}</span>{' '}
          <StatusBadge status={run.status} judged={details.judged === true} />
        </h1>
        <p class="run-meta">
          <span data-testid="run-model">{run.model}</span>
          {run.attempt > 1 || run.status === 'skipped' ? <> · attempt {run.attempt}</> : null}
          {run.file ? <> · {run.file}</> : null}
          {details.replayed ? <> · answered from a recording</> : null}
          {details.mock ? (
            <span data-testid="run-mock">
              {' '}
              · mock: answered with the test's own reference SQL, no model was called
            </span>
          ) : null}
        </p>
        <p class={`run-message message-${run.status}`} data-testid="run-message">
          {run.message || '(no message)'}
        </p>
        <div class="run-actions">
          <RunAgain key={`${file}:${index}`} tests={[run.name]} models={[run.model]} label="Run again" />
        </div>
      </header>

      <section class="cards" aria-label="Run metrics">
        <Metric
          id="tokens"
          label="Tokens"
          value={integerText(run.tokens)}
          detail={usageDetail(details.usage)}
        />
        <Metric
          id="cost"
          label="Cost"
          value={costText(run.cost)}
          detail={
            costBreakdown
              ? `${costText(costBreakdown.input_no_cache + costBreakdown.input_cache_read + costBreakdown.input_cache_write)} in · ${costText(costBreakdown.output)} out`
              : run.cost === null
                ? 'no price for this model'
                : null
          }
        />
        <Metric id="duration" label="Duration" value={secondsText(run.duration_ms)} />
        <Metric id="tool-calls" label="Tool calls" value={String(run.tool_call_count)} />
        <Metric
          id="extraction"
          label="Extraction tokens"
          value={extractionTokens === null ? '—' : integerText(extractionTokens)}
          detail={[
            details.extraction_cost === null ? null : costText(details.extraction_cost),
            details.extraction_attempts > 0 ? countText(details.extraction_attempts, 'attempt') : null,
          ]}
        />
        <Metric id="finish" label="Finish reason" value={details.finish_reason ?? '—'} />
      </section>

      {details.error ? (
        <div class="notice notice-error" role="alert" data-testid="run-error">
          <strong>Error:</strong> <span>{details.error}</span>
        </div>
      ) : null}
      {details.snapshot_consistent === false ? (
        <div class="notice notice-warn">
          The reference query may have seen other data than the agent (the warehouse changed during the run).
        </div>
      ) : null}

      <Section id="prompt" title="Prompt">
        <pre class="prose">{details.prompt || '(no prompt saved)'}</pre>
      </Section>
      <Section id="response" title="Response">
        {details.response_text === null ? (
          <p class="notice">No response.</p>
        ) : (
          <pre class="prose" data-testid="response-text">
            {details.response_text}
          </pre>
        )}
      </Section>
      {details.judge ? <JudgeSection details={details} judge={details.judge} /> : null}
      <Section id="reference-sql" title="Reference SQL" aside="from the test file">
        {details.reference_sql === null ? (
          <p class="notice">The test has no reference SQL.</p>
        ) : (
          <pre class="code sql" data-testid="reference-sql">
            {details.reference_sql}
          </pre>
        )}
      </Section>
      <Section id="tool-calls" title="Tool calls" aside={countText(details.tool_calls.length, 'call')}>
        {details.tool_calls.length === 0 ? <p class="notice">The agent called no tool.</p> : null}
        {details.tool_calls.map((call, position) => (
          <ToolCallView key={call.tool_call_id || position} call={call} position={position + 1} />
        ))}
      </Section>
      <Section id="extraction" title="Extraction SQL" aside="DuckDB, over the agent's query results">
        {details.extraction_sql === null ? (
          <p class="notice">No extraction query.</p>
        ) : (
          <pre class="code sql" data-testid="extraction-sql">
            {formatSql(details.extraction_sql)}
          </pre>
        )}
        {details.extraction_error ? (
          <pre class="code tool-error" data-testid="extraction-error">
            {details.extraction_error}
          </pre>
        ) : null}
      </Section>
      <Section id="data" title="Data comparison">
        <DataComparison details={details} highlights={highlights} />
      </Section>
      {highlights !== null ? (
        <Section id="diff" title="Diff">
          <DiffView diff={highlights} />
        </Section>
      ) : null}
      {details.assertions.length > 0 ? (
        <Section id="assertions" title="Assertions">
          <ul class="assertions">
            {details.assertions.map((assertion, position) => (
              <li key={position} class={assertion.passed ? 'assert-pass' : 'assert-fail'}>
                <StatusBadge status={assertion.passed ? 'passed' : 'failed'} compact /> {assertion.message}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </article>
  );
}

/** Everything about one run: answer, SQL, tool calls, data side by side, diff, usage. */
export function RunDetail(props: { file: string; index: number }) {
  const loaded = useLoad(`run:${props.file}:${props.index}`, () => api.run(props.file, props.index));
  if (loaded.state === 'loading') return <Loading what={`run ${props.index}`} />;
  if (loaded.state === 'failed') {
    return (
      <Failure message={loaded.error}>
        <a href={dashboardHref({ file: props.file })}>Back to {props.file}</a>
      </Failure>
    );
  }
  return <RunView response={loaded.data} />;
}
