import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { describeChanges, summarizeRequest } from './request-summary.js';

const SYSTEM = { role: 'system', content: 'You are nao.' };
const PROMPT = { role: 'user', content: [{ type: 'input_text', text: 'What is the total revenue?' }] };
const CALL = {
  type: 'function_call',
  call_id: 'call_1',
  name: 'execute_sql',
  arguments: '{"sql_query":"SELECT 1"}',
};
const RESULT = {
  type: 'function_call_output',
  call_id: 'call_1',
  output: '{"id":"query_0123abcd","rows":[[1]]}',
};
const TOOLS = [{ type: 'function', name: 'execute_sql', parameters: { type: 'object' } }];

/** An OpenAI Responses body as the AI SDK sends it for step 2 of an agent run. */
function responsesBody(overrides: Record<string, unknown> = {}) {
  return {
    model: 'gpt-4.1',
    input: [SYSTEM, PROMPT, CALL, RESULT],
    tools: TOOLS,
    tool_choice: 'auto',
    ...overrides,
  };
}

function summarize(body: unknown, path = '/v1/responses') {
  return summarizeRequest({ body: typeof body === 'string' ? body : JSON.stringify(body), path });
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined object members like JSON does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });
});

describe('summarizeRequest: what does not change the model input keeps the hash', () => {
  const base = summarize(responsesBody()).hash;
  it.each([
    [
      'key order',
      { tools: TOOLS, tool_choice: 'auto', input: [SYSTEM, PROMPT, CALL, RESULT], model: 'gpt-4.1' },
    ],
    ['the stream flag', responsesBody({ stream: true, stream_options: { include_usage: true } })],
    ['store and metadata', responsesBody({ store: false, metadata: { run: 'x' }, user: 'someone' })],
  ])('%s', (_label, body) => {
    expect(summarize(body).hash).toBe(base);
  });

  it('the base URL: the path is not part of the hash', () => {
    expect(summarize(responsesBody(), '/openai/proxy/responses').hash).toBe(base);
  });
});

describe('summarizeRequest: what the model sees changes the hash, and describeChanges says what', () => {
  const recorded = summarize(responsesBody());
  it.each([
    [
      'the prompt',
      { input: [SYSTEM, { role: 'user', content: 'Another question' }, CALL, RESULT] },
      'the prompt differs',
    ],
    [
      'the system prompt',
      { input: [{ role: 'system', content: 'You are someone else.' }, PROMPT, CALL, RESULT] },
      'the system prompt differs (RULES.md, the database schema, the context files or nao changed)',
    ],
    [
      'a tool result',
      { input: [SYSTEM, PROMPT, CALL, { ...RESULT, output: '{"id":"query_0123abcd","rows":[[2]]}' }] },
      'the execute_sql result of step 1 differs',
    ],
    [
      'the tool schemas',
      { tools: [{ ...TOOLS[0], parameters: { type: 'object', properties: {} } }] },
      'the tool definitions differ',
    ],
    [
      'the tool list',
      { tools: [...TOOLS, { type: 'function', name: 'grep' }] },
      'the tools differ (recorded: execute_sql; now: execute_sql, grep)',
    ],
    [
      'the response format',
      { text: { format: { type: 'json_schema', name: 'x' } } },
      'the response format differs',
    ],
    [
      'the model id',
      { model: 'gpt-4.1-mini' },
      'the model id differs (recorded "gpt-4.1", now "gpt-4.1-mini")',
    ],
    [
      'a longer conversation',
      { input: [SYSTEM, PROMPT, CALL, RESULT, { role: 'user', content: 'More?' }] },
      'the conversation has 4 message(s), the recording 3',
    ],
    [
      'a message of another kind',
      { input: [SYSTEM, PROMPT, { role: 'user', content: 'x' }, RESULT] },
      'message 2 changed kind (recorded: assistant, now: user)',
    ],
  ])('%s', (_label, overrides, change) => {
    const current = summarize(responsesBody(overrides));
    expect(current.hash).not.toBe(recorded.hash);
    expect(describeChanges(recorded.summary, current.summary)).toEqual([change]);
  });

  it('names a later user message by its position (the extraction request)', () => {
    const extraction = (request: string) => ({
      model: 'gpt-4.1',
      input: [PROMPT, { role: 'assistant', content: 'The answer is 1.' }, { role: 'user', content: request }],
      text: { format: { type: 'json_schema' } },
    });
    const before = summarize(extraction('Write one DuckDB query.'));
    const after = summarize(extraction('Write ONE DuckDB query.'));
    expect(describeChanges(before.summary, after.summary)).toEqual(['message 3 (user) differs']);
  });

  it('lists every part that changed', () => {
    const current = summarize(
      responsesBody({ model: 'gpt-5', input: [{ role: 'system', content: 'new' }, PROMPT, CALL, RESULT] }),
    );
    expect(describeChanges(recorded.summary, current.summary)).toEqual([
      'the model id differs (recorded "gpt-4.1", now "gpt-5")',
      'the system prompt differs (RULES.md, the database schema, the context files or nao changed)',
    ]);
  });
});

describe('summarizeRequest across provider shapes', () => {
  it('OpenAI Responses: system items apart, calls and results with their tool', () => {
    const { summary } = summarize(responsesBody());
    expect(summary.model).toBe('gpt-4.1');
    expect(summary.system).toMatch(/^[0-9a-f]{16}$/);
    expect(summary.messages.map(({ hash: _hash, ...rest }) => rest)).toEqual([
      { role: 'user' },
      { role: 'assistant', tool_calls: ['execute_sql'] },
      { role: 'tool', tool: 'execute_sql' },
    ]);
    expect(summary.tools?.names).toEqual(['execute_sql']);
    expect(summary.response_format).toBeNull();
  });

  it('OpenAI Chat Completions', () => {
    const { summary } = summarize(
      {
        model: 'gpt-4.1',
        messages: [
          { role: 'developer', content: 'You are nao.' },
          { role: 'user', content: 'Q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'execute_sql', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: '{}' },
        ],
        tools: [{ type: 'function', function: { name: 'execute_sql', parameters: {} } }],
        response_format: { type: 'json_schema' },
      },
      '/v1/chat/completions',
    );
    expect(summary.system).not.toBeNull();
    expect(
      summary.messages.map((message) => [message.role, message.tool ?? message.tool_calls ?? null]),
    ).toEqual([
      ['user', null],
      ['assistant', ['execute_sql']],
      ['tool', 'execute_sql'],
    ]);
    expect(summary.tools?.names).toEqual(['execute_sql']);
    expect(summary.response_format).not.toBeNull();
  });

  it('Anthropic Messages: tool_result blocks are tool results', () => {
    const { summary } = summarize(
      {
        model: 'claude-sonnet-4-5',
        system: [{ type: 'text', text: 'You are nao.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Q' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'execute_sql', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{}' }] },
        ],
        tools: [{ name: 'execute_sql', input_schema: {} }],
        max_tokens: 4096,
      },
      '/v1/messages',
    );
    expect(summary.system).not.toBeNull();
    expect(
      summary.messages.map((message) => [message.role, message.tool ?? message.tool_calls ?? null]),
    ).toEqual([
      ['user', null],
      ['assistant', ['execute_sql']],
      ['tool', 'execute_sql'],
    ]);
  });

  it('Gemini: model from the URL, functionResponse parts are tool results', () => {
    const { summary } = summarize(
      {
        systemInstruction: { parts: [{ text: 'You are nao.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Q' }] },
          { role: 'model', parts: [{ functionCall: { name: 'execute_sql', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'execute_sql', response: {} } }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'execute_sql' }, { name: 'grep' }] }],
        generationConfig: { responseMimeType: 'application/json', temperature: 0 },
      },
      '/v1beta/models/gemini-2.5-pro:generateContent',
    );
    expect(summary.model).toBe('gemini-2.5-pro');
    expect(summary.tools?.names).toEqual(['execute_sql', 'grep']);
    expect(summary.response_format).not.toBeNull();
    expect(summary.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it.each([
    ['a body that is not JSON', 'plain text body'],
    ['a JSON array', '[1,2]'],
    ['JSON null', 'null'],
    ['an object of an unknown shape', '{"prompt":"Q","max_tokens":5}'],
  ])('hashes %s without crashing', (_label, body) => {
    const first = summarize(body);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(summarize(body).hash).toBe(first.hash);
    expect(first.summary.messages).toHaveLength(1);
  });

  it('an unknown shape still tells its content apart', () => {
    expect(summarize('{"prompt":"Q1"}').hash).not.toBe(summarize('{"prompt":"Q2"}').hash);
  });
});
