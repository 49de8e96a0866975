import { describe, expect, it } from 'vitest';
import { EMPTY_USAGE } from '../llm/usage.js';
import { parseTestRunResponse } from './test-run-response.js';

/** What a backend of the first version answers: none of the fields added since. */
const FIRST_VERSION = {
  text: 'Acme Corp.',
  toolCalls: [{ toolName: 'execute_sql', toolCallId: 'c1', args: { sql_query: 'SELECT 1' }, result: {} }],
  usage: { ...EMPTY_USAGE },
  cost: null,
  finishReason: 'stop',
  durationMs: 12,
  verification: null,
};

describe('parseTestRunResponse', () => {
  it('reads an answer of a backend that predates judged answers and clarifications, leaving them absent', () => {
    const parsed = parseTestRunResponse(FIRST_VERSION);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect('judgement' in parsed.response).toBe(false);
    expect('clarification' in parsed.response).toBe(false);
  });

  it('keeps the judgement and the clarification of a newer backend', () => {
    const judgement = {
      model: 'openai:gpt-4.1',
      verdict: 'fail',
      reason: 'Names Globex.',
      error: null,
      attempts: 1,
      usage: { ...EMPTY_USAGE, totalTokens: 500 },
      cost: null,
    };
    const clarification = { question: 'Which year?', options: ['2024', '2025'] };
    const parsed = parseTestRunResponse({ ...FIRST_VERSION, judgement, clarification });
    expect(parsed).toMatchObject({ success: true, response: { judgement, clarification } });
  });

  it('refuses a judgement with a verdict it does not know, rather than guess', () => {
    const parsed = parseTestRunResponse({
      ...FIRST_VERSION,
      judgement: {
        model: 'x:y',
        verdict: 'maybe',
        reason: '',
        error: null,
        attempts: 1,
        usage: EMPTY_USAGE,
        cost: null,
      },
    });
    expect(parsed).toMatchObject({ success: false, error: expect.stringContaining('judgement.verdict') });
  });

  const NAO_FIELDS = {
    sql: 'SELECT name FROM customers',
    error: null,
    usage: { ...EMPTY_USAGE, totalTokens: 40 },
    table: {
      data: { columns: ['name', 'total'], rows: [['Acme', 3]] },
      expected: { columns: ['name', 'total'], rows: [['Acme', 3]] },
    },
    errorKind: null,
    referenceError: null,
    snapshotConsistent: true,
    attempts: 2,
    cost: {},
  };
  const ORIGINAL_FIELDS = {
    data: [{ total: 3, name: 'Acme' }],
    expectedData: [{ total: 3, name: 'Acme' }],
    expectedColumns: ['name', 'total'],
  };

  it.each([
    ['beside `verification` (nao chat now)', { verification: ORIGINAL_FIELDS, naoVerification: NAO_FIELDS }],
    ['inside `verification` (older nao chat)', { verification: { ...ORIGINAL_FIELDS, ...NAO_FIELDS } }],
  ])("reads nao's own verification fields %s", (_where, fields) => {
    const parsed = parseTestRunResponse({ ...FIRST_VERSION, ...fields });
    expect(parsed).toMatchObject({
      success: true,
      response: {
        verification: {
          sql: 'SELECT name FROM customers',
          attempts: 2,
          snapshotConsistent: true,
          usage: { totalTokens: 40 },
          data: { columns: ['name', 'total'], rows: [['Acme', 3]] },
        },
      },
    });
  });
});
