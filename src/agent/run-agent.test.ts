import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, REFERENCE_SQL } from '../../test-support/agent/project-fixture.js';
import {
  type CallOptions,
  lastToolOutputs,
  type ScriptedStep,
  scriptedModel,
  textStep,
  toolCallStep,
  usage,
} from '../../test-support/agent/scripted-model.js';
import { openSeededDuckDb } from '../../test-support/agent/seeded-duckdb.js';
import type { Database } from '../warehouse/index.js';
import { type AgentContext, createAgentContext } from './agent-context.js';
import type { ExecuteSqlOutput } from './execute-sql.js';
import { type AgentModel, type AgentStep, runAgent } from './run-agent.js';

const SETUP = `
  CREATE TABLE orders AS
    SELECT range AS id, (range % 5) + 1 AS customer_id, (range % 7) * 10.0::DOUBLE AS amount,
           CASE WHEN range % 3 = 0 THEN 'refunded' ELSE 'paid' END AS status
    FROM range(200);
`;

function agentModel(steps: ScriptedStep[], prices: AgentModel['prices'] = null) {
  const model = scriptedModel(steps);
  return { model, agent: { id: 'scripted:model', model, prices } satisfies AgentModel };
}

function toolNamesSent(call: CallOptions | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

describe('runAgent', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let warehouse: Database;
  let context: AgentContext;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    warehouse = await openSeededDuckDb({ name: 'warehouse', setupSql: SETUP });
    context = await createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse] });
  });
  afterAll(async () => {
    await warehouse.close();
    await fixture.cleanup();
  });

  it('runs SQL for real in a two-step loop and keeps the whole result the model only previewed', async () => {
    let seenByModel: unknown;
    const { model, agent } = agentModel([
      toolCallStep([
        { toolName: 'execute_sql', input: { sql_query: 'SELECT id, amount FROM orders ORDER BY id' } },
      ]),
      (call) => {
        seenByModel = lastToolOutputs(call)[0];
        return textStep('There are 200 orders; the first has amount 0.');
      },
    ]);
    const result = await runAgent({ prompt: 'List the orders', model: agent, mode: 'test', context });

    expect(result.text).toBe('There are 200 orders; the first has amount 0.');
    expect(result.finishReason).toBe('stop');
    expect(result.stepLimitReached).toBe(false);
    expect(result.clarification).toBeNull();
    expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(model.doGenerateCalls).toHaveLength(2);

    // The model saw 20 rows …
    const preview = (seenByModel as { type: string; value: ExecuteSqlOutput }).value;
    expect((seenByModel as { type: string }).type).toBe('json');
    expect(preview.rows).toHaveLength(20);
    expect(preview).toMatchObject({ row_count: 200, has_more: true });
    // … while the run kept all 200, under the id the model was given.
    expect(result.queryResults.size).toBe(1);
    const stored = result.queryResults.get(preview.id);
    expect(stored?.rows).toHaveLength(200);
    expect(stored?.rows[150]).toEqual([150, (150 % 7) * 10]);
    expect(stored).toMatchObject({
      sql: 'SELECT id, amount FROM orders ORDER BY id',
      databaseId: 'warehouse',
    });

    expect(result.toolCalls).toEqual([
      {
        toolName: 'execute_sql',
        toolCallId: expect.any(String),
        args: { sql_query: 'SELECT id, amount FROM orders ORDER BY id' },
        result: preview,
      },
    ]);
    expect(result.responseMessages.map((message) => message.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('hands a failing query back as a tool error that the model corrects on the next step', async () => {
    let errorSeen: unknown;
    const { agent } = agentModel([
      toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT SUM(amount) FROM order' } }]),
      (call) => {
        errorSeen = lastToolOutputs(call)[0];
        return toolCallStep([
          {
            toolName: 'execute_sql',
            input: { sql_query: "SELECT SUM(amount) AS revenue FROM orders WHERE status = 'paid'" },
          },
        ]);
      },
      textStep('Revenue is 3940.'),
    ]);
    const result = await runAgent({ prompt: 'What is the revenue?', model: agent, mode: 'test', context });

    expect(errorSeen).toEqual({
      type: 'error-text',
      value: expect.stringContaining('The query failed on database "warehouse" (duckdb)'),
    });
    expect(result.toolCalls).toHaveLength(2);
    expect(result.toolCalls[0]?.result).toEqual({ error: expect.stringContaining('syntax error') });
    expect(result.toolCalls[1]?.result).toMatchObject({ rows: [[3940]] });
    expect(result.queryResults.size).toBe(1);
    expect([...result.queryResults.values()][0]?.rows).toEqual([[3940]]);
    expect(result.finishReason).toBe('stop');
  });

  it('hands invalid tool input back to the model instead of failing the run', async () => {
    const { agent } = agentModel([
      toolCallStep([{ toolName: 'execute_sql', input: { query: 'SELECT 1' } }]),
      toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1 AS one' } }]),
      textStep('One.'),
    ]);
    const result = await runAgent({ prompt: 'One?', model: agent, mode: 'test', context });
    expect(result.toolCalls[0]).toMatchObject({
      args: { query: 'SELECT 1' },
      result: { error: expect.any(String) },
    });
    expect(result.toolCalls[1]?.result).toMatchObject({ rows: [[1]] });
    expect(result.text).toBe('One.');
  });

  describe('clarification', () => {
    it('is not among the tools sent to the model in test mode', async () => {
      const { model, agent } = agentModel([textStep('ok')]);
      await runAgent({ prompt: 'Hi', model: agent, mode: 'test', context });
      expect(toolNamesSent(model.doGenerateCalls[0])).toEqual(['execute_sql', 'grep', 'list', 'read']);
    });

    it('is sent in chat mode, and calling it ends the run with the question', async () => {
      const { model, agent } = agentModel([
        toolCallStep([
          {
            toolName: 'clarification',
            input: { question: 'Gross or net revenue?', options: ['gross', 'net'] },
          },
        ]),
        textStep('never reached'),
      ]);
      const result = await runAgent({ prompt: 'What is the revenue?', model: agent, mode: 'chat', context });
      expect(toolNamesSent(model.doGenerateCalls[0])).toEqual([
        'clarification',
        'execute_sql',
        'grep',
        'list',
        'read',
      ]);
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(result.finishReason).toBe('clarification');
      expect(result.clarification).toEqual({ question: 'Gross or net revenue?', options: ['gross', 'net'] });
      expect(result.stepLimitReached).toBe(false);
      // The call has its result, so the conversation can continue with the user's answer.
      expect(result.responseMessages.map((message) => message.role)).toEqual(['assistant', 'tool']);
    });

    it('stays in a test that allows it: the run ends on the question, under the chat instructions', async () => {
      const { model, agent } = agentModel([
        toolCallStep([{ toolName: 'clarification', input: { question: 'Which quarter?' } }]),
        textStep('never reached'),
      ]);
      const result = await runAgent({
        prompt: 'Revenue of the quarter?',
        model: agent,
        mode: 'test-with-clarification',
        context,
      });
      expect(toolNamesSent(model.doGenerateCalls[0])).toContain('clarification');
      expect(model.doGenerateCalls[0]?.prompt[0]).toEqual({
        role: 'system',
        content: context.systemPrompts['test-with-clarification'],
      });
      expect(result.finishReason).toBe('clarification');
      expect(result.clarification).toEqual({ question: 'Which quarter?', options: [] });
    });

    it('is refused as an unknown tool if a test-mode model calls it anyway, and the run goes on', async () => {
      const { agent } = agentModel([
        toolCallStep([{ toolName: 'clarification', input: { question: 'Gross or net?' } }]),
        textStep('Assuming gross revenue: 5000.'),
      ]);
      const result = await runAgent({ prompt: 'Revenue?', model: agent, mode: 'test', context });
      expect(result.clarification).toBeNull();
      expect(result.toolCalls[0]?.result).toEqual({ error: expect.stringContaining('clarification') });
      expect(result.finishReason).toBe('stop');
      expect(result.text).toBe('Assuming gross revenue: 5000.');
    });
  });

  it('sums usage over every step, cache and reasoning buckets included, and prices it', async () => {
    const steps: AgentStep[] = [];
    const { agent } = agentModel(
      [
        toolCallStep(
          [{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } }],
          usage({ input: 1000, cacheRead: 200, cacheWrite: 100, output: 50, reasoning: 20 }),
        ),
        textStep('Done.', usage({ input: 1500, cacheRead: 1000, output: 300, reasoning: 100 })),
      ],
      { inputNoCache: 2, inputCacheRead: 0.5, inputCacheWrite: 2.5, output: 8 },
    );
    const result = await runAgent({
      prompt: 'Go',
      model: agent,
      mode: 'test',
      context,
      onStep: (step) => {
        steps.push(step);
      },
    });
    expect(result.usage).toEqual({
      inputTotalTokens: 2500,
      inputNoCacheTokens: 1200,
      inputCacheReadTokens: 1200,
      inputCacheWriteTokens: 100,
      outputTotalTokens: 350,
      outputTextTokens: 230,
      outputReasoningTokens: 120,
      totalTokens: 2850,
    });
    expect(result.cost?.inputNoCache).toBeCloseTo(0.0024, 12);
    expect(result.cost?.inputCacheRead).toBeCloseTo(0.0006, 12);
    expect(result.cost?.inputCacheWrite).toBeCloseTo(0.00025, 12);
    expect(result.cost?.output).toBeCloseTo(0.0028, 12);
    expect(result.cost?.totalCost).toBeCloseTo(0.00605, 12);
    expect(steps.map((step) => step.usage.inputTotalTokens)).toEqual([1000, 1500]);
    expect(steps[0]?.toolCalls[0]?.toolName).toBe('execute_sql');
    expect(result.steps).toEqual(steps);
  });

  it('reports an unknown cost as null, not zero', async () => {
    const { agent } = agentModel([textStep('Hi', usage({ input: 10, output: 2 }))], null);
    const result = await runAgent({ prompt: 'Hi', model: agent, mode: 'test', context });
    expect(result.cost).toBeNull();
    expect(result.usage.totalTokens).toBe(12);
  });

  it('stops at maxSteps and says so when the model still wants tools', async () => {
    const again = () => toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } }]);
    const { model, agent } = agentModel([again(), again(), again()]);
    const result = await runAgent({ prompt: 'Loop', model: agent, mode: 'test', context, maxSteps: 2 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.finishReason).toBe('step-limit');
    expect(result.stepLimitReached).toBe(true);
    expect(result.text).toBe('');
    expect(result.queryResults.size).toBe(2);
  });

  it('sends the context system prompt, the history and the prompt; never the reference SQL', async () => {
    const { model, agent } = agentModel([textStep('ok')]);
    await runAgent({
      prompt: 'And per customer?',
      model: agent,
      mode: 'test',
      context,
      history: [
        { role: 'user', content: 'What is the revenue?' },
        { role: 'assistant', content: 'Revenue is 3940.' },
      ],
    });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt[0]).toEqual({ role: 'system', content: context.systemPrompts.test });
    expect(prompt.slice(1).map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(prompt[3])).toContain('And per customer?');
    expect(JSON.stringify(model.doGenerateCalls)).not.toContain(REFERENCE_SQL);
  });

  it('uses the injected id generator and clock', async () => {
    let ids = 0;
    let clock = 1000;
    const { agent } = agentModel([
      toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } }]),
      toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 2' } }]),
      textStep('ok'),
    ]);
    const result = await runAgent({
      prompt: 'Go',
      model: agent,
      mode: 'test',
      context,
      generateQueryId: () => `query_${(++ids).toString().padStart(8, '0')}`,
      now: () => (clock += 250),
    });
    expect([...result.queryResults.keys()]).toEqual(['query_00000001', 'query_00000002']);
    expect(result.durationMs).toBe(250);
  });

  it('ends the run with the error when the id generator is broken', async () => {
    const { agent } = agentModel([
      toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } }]),
      textStep('never reached'),
    ]);
    await expect(
      runAgent({ prompt: 'Go', model: agent, mode: 'test', context, generateQueryId: () => 'not-an-id' }),
    ).rejects.toMatchObject({ code: 'AGENT_INVALID_QUERY_ID' });
  });

  it('rejects with the model error when the model call fails', async () => {
    const { agent } = agentModel([
      () => {
        throw new Error('rate limited');
      },
    ]);
    await expect(runAgent({ prompt: 'Go', model: agent, mode: 'test', context })).rejects.toThrow(
      'rate limited',
    );
  });

  it.each([
    [{ maxSteps: 0 }, 'AGENT_INVALID_OPTION'],
    [{ maxSteps: 1.5 }, 'AGENT_INVALID_OPTION'],
    [{ prompt: '  ' }, 'AGENT_EMPTY_PROMPT'],
  ])('rejects %o before calling the model', async (overrides, code) => {
    const { model, agent } = agentModel([textStep('ok')]);
    await expect(
      runAgent({ prompt: 'Go', model: agent, mode: 'test', context, ...overrides }),
    ).rejects.toMatchObject({ code });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  describe('abort signal', () => {
    it('rejects without calling the model when already aborted', async () => {
      const { model, agent } = agentModel([textStep('ok')]);
      const signal = AbortSignal.abort(new Error('cancelled before start'));
      await expect(runAgent({ prompt: 'Go', model: agent, mode: 'test', context, signal })).rejects.toThrow(
        'cancelled before start',
      );
      expect(model.doGenerateCalls).toHaveLength(0);
    });

    it('cancels a running warehouse query and rejects with the reason', async () => {
      const controller = new AbortController();
      const { model, agent } = agentModel([
        toolCallStep([
          {
            toolName: 'execute_sql',
            input: {
              sql_query:
                'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range * b.range = -1',
            },
          },
        ]),
        textStep('never reached'),
      ]);
      const started = performance.now();
      setTimeout(() => controller.abort(new Error('test timed out')), 200);
      await expect(
        runAgent({ prompt: 'Go', model: agent, mode: 'test', context, signal: controller.signal }),
      ).rejects.toThrow('test timed out');
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(model.doGenerateCalls).toHaveLength(1);
      // The connection is usable again after the interrupt.
      expect((await warehouse.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
    });

    it('stops between steps when aborted from onStep', async () => {
      const controller = new AbortController();
      const { model, agent } = agentModel([
        toolCallStep([{ toolName: 'execute_sql', input: { sql_query: 'SELECT 1' } }]),
        textStep('never reached'),
      ]);
      await expect(
        runAgent({
          prompt: 'Go',
          model: agent,
          mode: 'test',
          context,
          signal: controller.signal,
          onStep: () => controller.abort(new Error('budget exceeded')),
        }),
      ).rejects.toThrow('budget exceeded');
      expect(model.doGenerateCalls).toHaveLength(1);
    });
  });
});
