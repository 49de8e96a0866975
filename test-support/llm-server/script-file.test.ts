import { describe, expect, it } from 'vitest';
import { ScriptFileError, scriptFromJson } from './script-file.js';
import type { ScriptFunction, ScriptRequest } from './types.js';

function request(prompt: string, index = 0): ScriptRequest {
  return {
    protocol: 'openai-chat',
    model: 'm',
    messages: [
      { role: 'system', content: 'you answer questions about total revenue' },
      { role: 'user', content: prompt },
    ],
    tools: [],
    body: {},
    index,
    stream: false,
    wantsJson: false,
    headers: {},
  };
}

describe('scriptFromJson', () => {
  it('keeps a list of turns as is', () => {
    expect(scriptFromJson([{ text: 'a' }, { text: 'b' }])).toEqual([{ text: 'a' }, { text: 'b' }]);
  });

  it('routes by user message and hands out each route in order', async () => {
    const script = scriptFromJson({
      routes: [
        { match: 'revenue', turns: [{ text: 'r1' }, { text: 'r2' }] },
        { match: 'customers', turns: [{ text: 'c1' }], repeatLast: true },
      ],
      fallback: [{ text: 'f1' }],
    }) as ScriptFunction;
    const answers = [];
    for (const prompt of [
      'total revenue?',
      'count customers',
      'revenue again',
      'customers again',
      'weather?',
    ]) {
      answers.push((await script(request(prompt))).text);
    }
    // The system prompt mentions revenue too; only user messages count.
    expect(answers).toEqual(['r1', 'c1', 'r2', 'c1', 'f1']);
  });

  it('fails a request once a route is used up, naming the route', async () => {
    const script = scriptFromJson({
      routes: [{ match: 'revenue', turns: [{ text: 'r1' }] }],
    }) as ScriptFunction;
    await script(request('revenue'));
    expect(() => script(request('revenue'))).toThrow('route "revenue" has no turn left (it has 1)');
    expect(() => script(request('other'))).toThrow('no route matches');
  });

  it.each([
    ['a string', 'turns', 'the script must be a list of turns'],
    ['a list with a non-object', [1], 'the script[0] must be an object'],
    ['a route without match', { routes: [{ turns: [] }] }, 'routes[0].match must be a non-empty string'],
    ['a route without turns', { routes: [{ match: 'x' }] }, 'routes[0].turns must be a list of turns'],
    ['a bad fallback', { fallback: {} }, 'fallback must be a list of turns'],
  ])('rejects %s', (_name, value, message) => {
    expect(() => scriptFromJson(value)).toThrow(ScriptFileError);
    expect(() => scriptFromJson(value)).toThrow(message);
  });
});
