import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture } from '../../test-support/agent/project-fixture.js';
import { openSeededDuckDb } from '../../test-support/agent/seeded-duckdb.js';
import {
  type Protocol,
  type ScriptRequest,
  startTestLlmServer,
  type TestLlmServer,
  type Turn,
} from '../../test-support/llm-server/index.js';
import { DEFAULT_CALL_SETTINGS, ProviderError, ProviderTimeoutError, resolveModel } from '../llm/index.js';
import type { Database } from '../warehouse/index.js';
import { type AgentContext, createAgentContext } from './agent-context.js';
import { type AgentModel, runAgent } from './run-agent.js';

const SQL = 'SELECT id, id * 2 AS doubled FROM range(200) t(id) ORDER BY id';
const BAD_SQL = 'SELEC 1';
const TURN_USAGE = { input: 1000, cachedInput: 400, output: 120, reasoning: 30 };

/** Fails the first query, fixes it, then answers from the tool result it received. */
function analyst(request: ScriptRequest): Turn {
  const toolMessages = request.messages.filter((message) => message.role === 'tool');
  if (toolMessages.length === 0) {
    return { toolCalls: [{ name: 'execute_sql', args: { sql_query: BAD_SQL } }], usage: TURN_USAGE };
  }
  if (toolMessages.length === 1) {
    return { toolCalls: [{ name: 'execute_sql', args: { sql_query: SQL } }], usage: TURN_USAGE };
  }
  const last = JSON.parse(toolMessages[1]?.content ?? '{}') as { row_count?: number };
  return { text: `The query returned ${last.row_count} rows.`, usage: TURN_USAGE };
}

const PROVIDERS: Record<Protocol, (url: string) => LanguageModel> = {
  'openai-chat': (url) => createOpenAI({ baseURL: url, apiKey: 'test' }).chat('gpt-4.1'),
  'openai-responses': (url) => createOpenAI({ baseURL: url, apiKey: 'test' }).responses('gpt-4.1'),
  'anthropic-messages': (url) => createAnthropic({ baseURL: url, apiKey: 'test' })('claude-sonnet-4-5'),
};

describe('runAgent through the real provider packages and a wire-protocol test server', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let warehouse: Database;
  let context: AgentContext;
  let server: TestLlmServer | undefined;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    warehouse = await openSeededDuckDb({ name: 'warehouse', setupSql: 'SELECT 1' });
    context = await createAgentContext({ projectDir: fixture.projectDir, databases: [warehouse] });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await warehouse.close();
    await fixture.cleanup();
  });

  it.each(Object.keys(PROVIDERS) as Protocol[])(
    '%s: streams the answer text as it is written when onTextDelta is given',
    async (protocol) => {
      server = await startTestLlmServer({ script: analyst });
      const agent: AgentModel = {
        id: `test:${protocol}`,
        model: PROVIDERS[protocol](server.url),
        prices: null,
      };
      const deltas: string[] = [];
      const result = await runAgent({
        prompt: 'Double every id',
        model: agent,
        mode: 'chat',
        context,
        onTextDelta: (delta) => deltas.push(delta),
      });
      expect(server.requests.every((request) => request.stream)).toBe(true);
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe('The query returned 200 rows.');
      expect(result.text).toBe('The query returned 200 rows.');
      expect(result.toolCalls).toHaveLength(2);
      expect(result.usage.inputTotalTokens).toBe(3000);
      expect(result.queryResults.size).toBe(1);
    },
  );

  it('streaming mode still throws a provider error', async () => {
    server = await startTestLlmServer({
      script: () => ({ status: 400, errorBody: { error: { message: 'bad model' } } }),
    });
    const agent: AgentModel = { id: 'test', model: PROVIDERS['openai-chat'](server.url), prices: null };
    await expect(
      runAgent({ prompt: 'Hi', model: agent, mode: 'chat', context, onTextDelta: () => undefined }),
    ).rejects.toThrow(/bad model/);
  });

  it.each(Object.keys(PROVIDERS) as Protocol[])(
    '%s: tool loop, error recovery, whole results, usage',
    async (protocol) => {
      server = await startTestLlmServer({ script: analyst });
      const agent: AgentModel = {
        id: `test:${protocol}`,
        model: PROVIDERS[protocol](server.url),
        prices: { inputNoCache: 2, inputCacheRead: 0.5, output: 8 },
      };
      const result = await runAgent({ prompt: 'Double every id', model: agent, mode: 'test', context });

      expect(server.requests.map((request) => request.protocol)).toEqual([protocol, protocol, protocol]);
      expect(result.text).toBe('The query returned 200 rows.');
      expect(result.finishReason).toBe('stop');
      expect(result.toolCalls.map((call) => call.args)).toEqual([{ sql_query: BAD_SQL }, { sql_query: SQL }]);
      expect(result.toolCalls[0]?.result).toEqual({ error: expect.stringContaining('syntax error') });

      // The tools on the wire: test mode sends no clarification tool.
      expect(server.requests[0]?.tools.map((tool) => tool.name).sort()).toEqual([
        'execute_sql',
        'grep',
        'list',
        'read',
      ]);
      // The error reached the model as text it can read; the preview held 20 of 200 rows.
      expect(server.requests[1]?.messages.at(-1)?.content).toContain('syntax error');
      if (protocol === 'anthropic-messages') {
        // Anthropic has a flag for failed tool calls; the error output sets it.
        const messages = server.requests[1]?.body.messages as {
          content: { type: string; is_error?: boolean }[];
        }[];
        const toolResult = messages.at(-1)?.content.find((part) => part.type === 'tool_result');
        expect(toolResult?.is_error).toBe(true);
      }
      const preview = JSON.parse(server.requests[2]?.messages.at(-1)?.content ?? '{}') as {
        id: string;
        rows: unknown[];
        row_count: number;
      };
      expect(preview.rows).toHaveLength(20);
      expect(preview.row_count).toBe(200);
      expect(result.queryResults.get(preview.id)?.rows).toHaveLength(200);
      expect(result.queryResults.get(preview.id)?.rows[199]).toEqual([199, 398]);

      expect(result.usage.inputTotalTokens).toBe(3000);
      expect(result.usage.inputCacheReadTokens).toBe(1200);
      expect(result.usage.inputNoCacheTokens).toBe(1800);
      expect(result.usage.outputTotalTokens).toBe(360);
      expect(result.cost?.totalCost).toBeCloseTo((1800 * 2 + 1200 * 0.5 + 360 * 8) / 1_000_000, 12);
    },
  );

  it('accepts the model llm/ resolves from nao_config.yaml as is', async () => {
    server = await startTestLlmServer({ script: [{ text: 'Hello.', usage: { input: 10, output: 2 } }] });
    const resolved = resolveModel({
      modelString: 'openai:gpt-4.1',
      config: {
        llm: { providers: [{ provider: 'openai', api_key: 'test', base_url: server.url, models: [] }] },
      },
      env: {},
    });
    const result = await runAgent({ prompt: 'Hi', model: resolved, mode: 'chat', context });
    expect(result.text).toBe('Hello.');
    expect(server.requests[0]?.tools.map((tool) => tool.name)).toContain('clarification');
    expect(result.cost).not.toBeNull();
  });

  /** The openai model as nao_config.yaml would give it, pointed at the test server. */
  function configured(url: string, callSettings = DEFAULT_CALL_SETTINGS) {
    return resolveModel({
      modelString: 'openai:gpt-4.1',
      config: { llm: { providers: [{ provider: 'openai', base_url: url, models: [] }] } },
      env: { OPENAI_API_KEY: 'sk-test-SECRET-0123456789abcdef' },
      callSettings,
    });
  }

  it("reports a provider failure with nao's message, naming the model and the key's origin", async () => {
    server = await startTestLlmServer({
      script: [
        {
          status: 401,
          errorBody: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
        },
      ],
    });
    const error = await runAgent({
      prompt: 'Hi',
      model: configured(server.url),
      mode: 'test',
      context,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'openai:gpt-4.1 failed with HTTP 401: Incorrect API key provided (invalid_api_key) Check the API key (it came from the OPENAI_API_KEY environment variable).',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('ends a streamed answer that stalls with a timeout error instead of hanging', async () => {
    server = await startTestLlmServer({
      script: [{ text: 'A long answer that never ends.', hang: 'mid-body' }],
    });
    const deltas: string[] = [];
    const error = await runAgent({
      prompt: 'Hi',
      // Long enough for the first half to come in time on a loaded machine, so the stall is what times out.
      model: configured(server.url, { ...DEFAULT_CALL_SETTINGS, timeout: { stepMs: 60_000, chunkMs: 1000 } }),
      mode: 'chat',
      context,
      onTextDelta: (delta) => deltas.push(delta),
    }).catch((caught: unknown) => caught);
    expect(deltas.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).message).toBe(
      'openai:gpt-4.1 stopped sending its streamed answer for 1 s (chunk timeout).',
    );
  });
});
