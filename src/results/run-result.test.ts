import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPARISON } from '../config/schema.js';
import { EMPTY_USAGE } from '../llm/usage.js';
import type { TestCase } from '../test-files/index.js';
import type { TestRunResponse } from '../test-run/index.js';
import { judgeRun } from '../verdict/index.js';
import { judgedResult, spentUsd } from './run-result.js';

const TEST: TestCase = {
  name: 'biggest_customer',
  prompt: 'Who is our biggest customer?',
  sql: null,
  expectedAnswer: 'Acme Corp',
  // The answer comes without a query: the judge's verdict alone decides.
  requiresData: false,
  allowClarification: false,
  database: null,
  assertions: [{ type: 'max_tool_calls', max: 3, tool: null }],
  ordered: false,
  comparison: null,
  filePath: '/p/tests/biggest_customer.yml',
  relativePath: 'biggest_customer.yml',
  folders: [],
};

const RESPONSE: TestRunResponse = {
  text: 'Acme Corp.',
  toolCalls: [],
  usage: { ...EMPTY_USAGE, totalTokens: 1000 },
  cost: { inputNoCache: 0.002, inputCacheRead: 0, inputCacheWrite: 0, output: 0.001, totalCost: 0.003 },
  finishReason: 'stop',
  durationMs: 50,
  verification: null,
  clarification: null,
  judgement: {
    model: 'openai:gpt-4.1-mini',
    verdict: 'pass',
    reason: 'Names Acme Corp.',
    error: null,
    attempts: 1,
    usage: { ...EMPTY_USAGE, inputTotalTokens: 300, outputTotalTokens: 20, totalTokens: 320 },
    cost: { inputNoCache: 0.0003, inputCacheRead: 0, inputCacheWrite: 0, output: 0.0001, totalCost: 0.0004 },
  },
};

describe('judgedResult of a judged run', () => {
  const row = judgedResult({
    run: { test: TEST, model: 'openai:gpt-4.1', attempt: 1 },
    response: RESPONSE,
    judgement: judgeRun({ test: TEST, response: RESPONSE, comparison: DEFAULT_COMPARISON }),
    durationMs: 70,
  });

  it('is marked judged, with the judge’s model, verdict, reason, usage and cost apart from the agent’s', () => {
    expect(row).toMatchObject({
      status: 'passed',
      message: 'Names Acme Corp.; max_tool_calls: 0 calls (max 3)',
      tokens: 1000,
      cost: 0.003,
    });
    expect(row.details).toMatchObject({
      expected_answer: 'Acme Corp',
      judged: true,
      judge: {
        model: 'openai:gpt-4.1-mini',
        verdict: 'pass',
        reason: 'Names Acme Corp.',
        error: null,
        attempts: 1,
        usage: expect.objectContaining({ input_total_tokens: 300, total_tokens: 320 }),
        cost: 0.0004,
      },
      assertions: [{ type: 'max_tool_calls', passed: true, message: 'max_tool_calls: 0 calls (max 3)' }],
      clarification: null,
    });
  });

  it('counts the judge in what the run spent', () => {
    expect(spentUsd(row)).toBeCloseTo(0.0034, 12);
  });
});
