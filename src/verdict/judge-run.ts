import type { EXECUTE_SQL_TOOL_NAME } from '../agent/execute-sql.js';
import { isToolError } from '../agent/tool-error.js';
import { type AssertionReport, checkAssertions, readsAnswerData } from '../assertions/index.js';
import type { ComparisonOptions } from '../config/index.js';
import type { AnswerJudgement } from '../grader/index.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunResponse } from '../test-run/index.js';
import { buildRunFacts } from './build-run-facts.js';
import { type ComparisonResult, compareResults } from './compare/index.js';
import { type CheckOutcome, decideVerdict, type Verdict } from './verdict.js';

/** Everything the judge found about one run: the verdict and the evidence behind it. */
export interface Judgement {
  verdict: Verdict;
  /** The data comparison; null when the test has no `sql` or the run could not be compared. */
  comparison: ComparisonResult | null;
  /** The assertions; null when the test has none. */
  assertions: AssertionReport | null;
  /** What the judge model said of the answer (tests with `expected_answer`); null otherwise. */
  judge: AnswerJudgement | null;
  /** True when the verdict rests on the judge model's grading, not on data: say so in every output. */
  judged: boolean;
  /** Why the run could not be judged (reference SQL failed, extraction broke, no verification). */
  error: string | null;
}

/**
 * Judges one answered run by deterministic code: the answer's data against the reference rows
 * (with the test's tolerances over the config's), the judge model's structured grading of a
 * test with an expected answer, then the assertions, then the verdict. A run that cannot be
 * judged is an error, never a pass.
 */
export function judgeRun(options: {
  test: TestCase;
  response: TestRunResponse;
  /** `test.comparison` of nao_config.yaml; a test's own `comparison` overrides it key by key. */
  comparison: ComparisonOptions;
}): Judgement {
  const { test, response } = options;
  const verification = response.verification;
  const extractionError =
    verification?.data === null && verification.errorKind === 'extraction-failed'
      ? `answer extraction failed: ${verification.error ?? 'no data'}`
      : null;
  let comparison: ComparisonResult | null = null;
  let error: string | null = null;
  if (test.sql !== null) {
    if (verification === null) error = 'the answer was not verified: the backend returned no verification';
    else if (verification.referenceError !== null)
      error = `reference SQL failed: ${verification.referenceError}`;
    else if (extractionError !== null) error = extractionError;
    else {
      comparison = compareResults({
        actual: verification.data,
        actualError: verification.error,
        expected: verification.expectedData ?? { columns: verification.expectedColumns, rows: [] },
        tolerances: { ...options.comparison, ...(test.comparison ?? {}) },
        ordered: test.ordered,
      });
    }
  }

  const judge = test.expectedAnswer === null ? null : (response.judgement ?? null);
  let judged: CheckOutcome | null = null;
  /** True when the verdict rests on the judge's reading (not on the missing query). */
  let byJudge = false;
  if (test.expectedAnswer !== null && test.requiresData !== false && !ranQuery(response.toolCalls)) {
    // Stating the expected text without looking at the data is not an answer, whatever the judge says.
    const reason = judge?.verdict ? `; the judge said ${judge.verdict}: ${judge.reason}` : '';
    judged = { passed: false, message: `${NO_QUERY}${reason}` };
  } else if (test.expectedAnswer !== null) {
    if (judge === null)
      error ??=
        'the answer was not graded: the backend returned no judgement (it predates expected_answer; update nao chat)';
    else if (judge.verdict === null)
      error ??= `the judge model ${judge.model} gave no verdict: ${judge.error}`;
    else {
      judged = { passed: judge.verdict === 'pass', message: judge.reason };
      byJudge = true;
    }
  }

  const assertions =
    test.assertions.length > 0
      ? checkAssertions({ assertions: test.assertions, facts: buildRunFacts({ test, response }) })
      : null;
  // Data the assertions read but that could not be extracted is the harness's failure, as with `sql`.
  if (test.sql === null && readsAnswerData(test.assertions)) error ??= extractionError;
  error ??= assertions?.error ?? null;

  const verdict = decideVerdict({ test, comparison, judged, assertions, error });
  return {
    verdict,
    comparison,
    assertions,
    judge,
    judged: byJudge && (verdict.status === 'passed' || verdict.status === 'failed'),
    error,
  };
}

const NO_QUERY =
  'the agent ran no query: a judged answer must come from the data (set `requires_data: false` in the test if it need not)';

/** Typed against the tool's name, without loading the tool (and the warehouse drivers) to judge. */
const QUERY_TOOL: typeof EXECUTE_SQL_TOOL_NAME = 'execute_sql';

/** True when some `execute_sql` call returned a result rather than an error. */
function ranQuery(toolCalls: TestRunResponse['toolCalls']): boolean {
  return toolCalls.some(
    (call) => call.toolName === QUERY_TOOL && call.result != null && !isToolError(call.result),
  );
}
