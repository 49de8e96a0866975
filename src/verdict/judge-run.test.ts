import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPARISON } from '../config/schema.js';
import type { AnswerJudgement } from '../grader/index.js';
import { EMPTY_USAGE } from '../llm/usage.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunResponse, Verification } from '../test-run/index.js';
import { judgeRun } from './judge-run.js';

function testCase(overrides: Partial<TestCase> = {}): TestCase {
  return {
    name: 'biggest_customer',
    prompt: 'Who is our biggest customer?',
    sql: null,
    expectedAnswer: null,
    allowClarification: false,
    database: null,
    assertions: [],
    ordered: false,
    comparison: null,
    filePath: '/project/tests/biggest_customer.yml',
    relativePath: 'biggest_customer.yml',
    folders: [],
    ...overrides,
  };
}

/** A response as an older backend sends it: none of the fields added for judged answers. */
function response(overrides: Partial<TestRunResponse> = {}): TestRunResponse {
  return {
    text: 'Acme Corp is the biggest customer.',
    toolCalls: [{ toolName: 'execute_sql', toolCallId: 'c1', args: { sql_query: 'SELECT 1' }, result: {} }],
    usage: { ...EMPTY_USAGE, totalTokens: 1200 },
    cost: null,
    finishReason: 'stop',
    durationMs: 100,
    verification: null,
    ...overrides,
  };
}

function judgement(overrides: Partial<AnswerJudgement> = {}): AnswerJudgement {
  return {
    model: 'openai:gpt-4.1',
    verdict: 'pass',
    reason: 'Names Acme Corp.',
    error: null,
    attempts: 1,
    usage: { ...EMPTY_USAGE },
    cost: null,
    ...overrides,
  };
}

function extracted(overrides: Partial<Verification>): Verification {
  return {
    data: null,
    sql: null,
    error: null,
    errorKind: null,
    expectedData: null,
    expectedColumns: [],
    referenceError: null,
    snapshotConsistent: null,
    attempts: 1,
    usage: { ...EMPTY_USAGE },
    cost: null,
    ...overrides,
  };
}

const judge = (test: TestCase, answer: TestRunResponse) =>
  judgeRun({ test, response: answer, comparison: DEFAULT_COMPARISON });

describe('judgeRun: judged answers', () => {
  const judged = testCase({ expectedAnswer: 'Acme Corp' });

  it('passes on the judge model’s "pass", with its reason, and says the verdict is judged', () => {
    const result = judge(judged, response({ judgement: judgement() }));
    expect(result.verdict).toEqual({ status: 'passed', passed: true, message: 'Names Acme Corp.' });
    expect(result.judged).toBe(true);
    expect(result.judge?.model).toBe('openai:gpt-4.1');
  });

  it('fails on "fail", with the reason', () => {
    const result = judge(
      judged,
      response({ judgement: judgement({ verdict: 'fail', reason: 'Names Globex.' }) }),
    );
    expect(result.verdict).toEqual({ status: 'failed', passed: false, message: 'Names Globex.' });
    expect(result.judged).toBe(true);
  });

  it('is an error, never a pass, when the backend predates judged answers', () => {
    const result = judge(judged, response());
    expect(result.verdict).toEqual({
      status: 'error',
      passed: false,
      message:
        'the answer was not graded: the backend returned no judgement (it predates expected_answer; update nao chat)',
    });
    expect(result.judged).toBe(false);
  });

  it('is an error when the judge gave no verdict', () => {
    const result = judge(
      judged,
      response({ judgement: judgement({ verdict: null, reason: '', error: 'the reply was not JSON' }) }),
    );
    expect(result.verdict.status).toBe('error');
    expect(result.verdict.message).toBe(
      'the judge model openai:gpt-4.1 gave no verdict: the reply was not JSON',
    );
    expect(result.judged).toBe(false);
  });

  it('fails when the agent ran no query, whatever the judge says, unless requires_data is false', () => {
    const noQuery = response({ toolCalls: [], text: 'Acme Corp', judgement: judgement() });
    const result = judge(judged, noQuery);
    expect(result.verdict).toEqual({
      status: 'failed',
      passed: false,
      message:
        'the agent ran no query: a judged answer must come from the data (set `requires_data: false` in the test if it need not); the judge said pass: Names Acme Corp.',
    });
    // The failure rests on the missing query, not on the judge's reading.
    expect(result.judged).toBe(false);
    expect(result.judge?.verdict).toBe('pass');
    expect(judge(testCase({ expectedAnswer: 'Acme Corp', requiresData: false }), noQuery)).toMatchObject({
      verdict: { status: 'passed', message: 'Names Acme Corp.' },
      judged: true,
    });
  });

  it.each([
    [
      'a query that failed',
      [{ toolName: 'execute_sql', toolCallId: 'c1', args: {}, result: { error: 'no such table' } }],
    ],
    [
      'another tool only',
      [{ toolName: 'read', toolCallId: 'c1', args: { path: 'RULES.md' }, result: { text: 'x' } }],
    ],
    ['a call that never ran', [{ toolName: 'execute_sql', toolCallId: 'c1', args: {}, result: null }]],
  ])('counts %s as no query', (_label, toolCalls) => {
    const result = judge(judged, response({ toolCalls, judgement: judgement() }));
    expect(result.verdict.status).toBe('failed');
    expect(result.verdict.message).toMatch(/^the agent ran no query/);
  });

  it('fails a run without a query even when the judge could not grade it', () => {
    const result = judge(
      judged,
      response({ toolCalls: [], judgement: judgement({ verdict: null, reason: '', error: 'timeout' }) }),
    );
    expect(result.verdict).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^the agent ran no query[^;]*$/),
    });
  });

  it('ignores a judgement for a test without expected_answer', () => {
    const result = judge(
      testCase({ assertions: [{ type: 'tool_call', tool: 'execute_sql', args: null, minCount: 1 }] }),
      response({ judgement: judgement({ verdict: 'fail' }) }),
    );
    expect(result.verdict.status).toBe('passed');
    expect(result.judge).toBeNull();
    expect(result.judged).toBe(false);
  });
});

describe('judgeRun: assertions that need more than tool calls', () => {
  const counted = testCase({ assertions: [{ type: 'row_count', equals: 2, min: null, max: null }] });

  it('counts the rows of the answer extracted without a reference', () => {
    const data = { columns: ['name'], rows: [['Acme'], ['Globex']] };
    expect(judge(counted, response({ verification: extracted({ data }) })).verdict).toEqual({
      status: 'passed',
      passed: true,
      message: 'row_count: 2 rows (exactly 2)',
    });
  });

  it('is an error when a backend extracted nothing for them', () => {
    expect(judge(counted, response()).verdict).toEqual({
      status: 'error',
      passed: false,
      message:
        'row_count cannot be checked: the backend extracted no answer data (it predates row_count and columns assertions on tests without sql; update nao chat)',
    });
  });

  it('is an error when the extraction broke, and a failure when the agent ran no SQL', () => {
    const broken = extracted({
      errorKind: 'extraction-failed',
      error: 'Binder Error: no column x',
      attempts: 2,
    });
    expect(judge(counted, response({ verification: broken })).verdict).toMatchObject({
      status: 'error',
      message: 'answer extraction failed: Binder Error: no column x',
    });
    const none = extracted({
      errorKind: 'no-queries',
      error: 'The agent did not run any SQL query.',
      attempts: 0,
    });
    expect(judge(counted, response({ verification: none })).verdict).toMatchObject({
      status: 'failed',
      message:
        'row_count: the answer has no data, expected exactly 2 rows (The agent did not run any SQL query.)',
    });
  });

  it('reads asked_clarification from the response, and cannot check it without', () => {
    const asks = testCase({
      allowClarification: true,
      assertions: [{ type: 'asked_clarification', expected: true }],
    });
    expect(
      judge(asks, response({ clarification: { question: 'Which year?', options: [] } })).verdict,
    ).toMatchObject({ status: 'passed', message: 'asked_clarification: "Which year?"' });
    expect(judge(asks, response({ clarification: null })).verdict.status).toBe('failed');
    expect(judge(asks, response()).verdict.status).toBe('error');
  });

  it('keeps tool_call-only tests working against a response without the new fields', () => {
    const result = judge(
      testCase({ assertions: [{ type: 'tool_call', tool: 'execute_sql', args: null, minCount: 1 }] }),
      response(),
    );
    expect(result.verdict).toEqual({
      status: 'passed',
      passed: true,
      message: 'tool_call: execute_sql (x1, min 1)',
    });
  });
});
