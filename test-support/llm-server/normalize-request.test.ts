import { describe, expect, it } from 'vitest';
import { normalizeRequest, type ResponsesItemStore } from './normalize-request.js';
import type { NormalizedMessage, Protocol } from './types.js';

const toolLoop: NormalizedMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'how many orders?' },
  {
    role: 'assistant',
    content: 'checking',
    toolCalls: [{ id: 'c1', name: 'execute_sql', args: { sql: 'select 1' } }],
  },
  { role: 'tool', content: '{"rows":[[1]]}', toolCallId: 'c1', toolName: 'execute_sql' },
];

describe('normalizeRequest', () => {
  it.each<[Protocol, Record<string, unknown>]>([
    [
      'openai-chat',
      {
        model: 'm',
        messages: [
          { role: 'developer', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'how many orders?' }] },
          {
            role: 'assistant',
            content: 'checking',
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'execute_sql', arguments: '{"sql":"select 1"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: '{"rows":[[1]]}' },
        ],
      },
    ],
    [
      'openai-responses',
      {
        model: 'm',
        input: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'input_text', text: 'how many orders?' }] },
          { role: 'assistant', content: [{ type: 'output_text', text: 'checking' }] },
          { type: 'function_call', call_id: 'c1', name: 'execute_sql', arguments: '{"sql":"select 1"}' },
          { type: 'function_call_output', call_id: 'c1', output: '{"rows":[[1]]}' },
        ],
      },
    ],
    [
      'anthropic-messages',
      {
        model: 'm',
        system: [{ type: 'text', text: 'be brief' }],
        messages: [
          { role: 'user', content: 'how many orders?' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'checking' },
              { type: 'tool_use', id: 'c1', name: 'execute_sql', input: { sql: 'select 1' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: '{"rows":[[1]]}' }] },
            ],
          },
        ],
      },
    ],
  ])('reads a tool loop from %s', (protocol, body) => {
    const result = normalizeRequest({ protocol, body, store: new Map() });
    expect(result.messages).toEqual(toolLoop);
    expect(result.model).toBe('m');
  });

  it('resolves Responses item references to the items the server sent', () => {
    const store: ResponsesItemStore = new Map([
      ['msg_0', { type: 'message', text: 'checking' }],
      [
        'fc_0_0',
        { type: 'function_call', callId: 'c1', name: 'execute_sql', arguments: '{"sql":"select 1"}' },
      ],
    ]);
    const result = normalizeRequest({
      protocol: 'openai-responses',
      store,
      body: {
        model: 'm',
        instructions: 'be brief',
        input: [
          { role: 'user', content: 'how many orders?' },
          { type: 'item_reference', id: 'msg_0' },
          { type: 'item_reference', id: 'fc_0_0' },
          { type: 'item_reference', id: 'unknown' },
          { type: 'function_call_output', call_id: 'c1', output: '{"rows":[[1]]}' },
        ],
      },
    });
    expect(result.messages).toEqual(toolLoop);
  });

  it.each<[string, Protocol, Record<string, unknown>, boolean, string | null]>([
    [
      'chat json_schema',
      'openai-chat',
      { response_format: { type: 'json_schema', json_schema: {} } },
      true,
      null,
    ],
    ['chat json_object', 'openai-chat', { response_format: { type: 'json_object' } }, true, null],
    ['chat plain', 'openai-chat', {}, false, null],
    [
      'chat forced function',
      'openai-chat',
      { tool_choice: { type: 'function', function: { name: 'answer' } } },
      false,
      'answer',
    ],
    ['responses text.format', 'openai-responses', { text: { format: { type: 'json_schema' } } }, true, null],
    [
      'anthropic output_config',
      'anthropic-messages',
      { output_config: { format: { type: 'json_schema' } } },
      true,
      null,
    ],
    [
      'anthropic json tool',
      'anthropic-messages',
      { tools: [{ name: 'json', input_schema: {} }], tool_choice: { type: 'any' } },
      true,
      'json',
    ],
    [
      'anthropic named tool',
      'anthropic-messages',
      { tools: [{ name: 'a' }, { name: 'b' }], tool_choice: { type: 'tool', name: 'b' } },
      false,
      'b',
    ],
    [
      'anthropic any of several',
      'anthropic-messages',
      { tools: [{ name: 'a' }, { name: 'b' }], tool_choice: { type: 'any' } },
      false,
      null,
    ],
  ])('detects structured output and forced tools: %s', (_name, protocol, body, wantsJson, forcedTool) => {
    const result = normalizeRequest({ protocol, body: { model: 'm', ...body }, store: new Map() });
    expect(result.wantsJson).toBe(wantsJson);
    expect(result.forcedTool).toBe(forcedTool);
  });

  it('survives bodies with missing or odd fields', () => {
    for (const protocol of ['openai-chat', 'openai-responses', 'anthropic-messages'] as const) {
      const result = normalizeRequest({
        protocol,
        body: { messages: 'nope', input: 42, tools: [null, 'x'], system: null },
        store: new Map(),
      });
      expect(result.model).toBe('');
      expect(result.messages).toEqual([]);
    }
  });

  it('keeps arguments that are not JSON as text', () => {
    const result = normalizeRequest({
      protocol: 'openai-chat',
      store: new Map(),
      body: {
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }],
          },
        ],
      },
    });
    expect(result.messages[0]?.toolCalls?.[0]?.args).toBe('{oops');
  });
});
