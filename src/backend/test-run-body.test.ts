import { describe, expect, it } from 'vitest';
import { parseTestRunBody } from './test-run-body.js';

const model = { provider: 'openai', modelId: 'gpt-4.1' };

describe('parseTestRunBody', () => {
  it('accepts the documented request and fills the optional fields with null', () => {
    expect(parseTestRunBody({ prompt: 'Total revenue?', model })).toEqual({
      success: true,
      request: { prompt: 'Total revenue?', model, sql: null, databaseId: null },
    });
  });

  it('keeps sql and databaseId, trims the model and ignores unknown keys', () => {
    const parsed = parseTestRunBody({
      prompt: ' Total? ',
      model: { provider: ' openai ', modelId: 'gpt-4.1 ' },
      sql: 'SELECT 1',
      databaseId: 'shop',
      clientVersion: '9.9.9',
    });
    expect(parsed).toEqual({
      success: true,
      request: { prompt: ' Total? ', model, sql: 'SELECT 1', databaseId: 'shop' },
    });
  });

  it('reads the fields of judged answers, answer extraction and clarification', () => {
    expect(
      parseTestRunBody({
        prompt: 'Biggest customer?',
        model,
        extractAnswer: true,
        expectedAnswer: 'Acme Corp',
        judgeModel: { provider: 'anthropic ', modelId: ' claude-sonnet-4-5' },
        allowClarification: true,
      }),
    ).toEqual({
      success: true,
      request: {
        prompt: 'Biggest customer?',
        model,
        sql: null,
        databaseId: null,
        extractAnswer: true,
        expectedAnswer: 'Acme Corp',
        judgeModel: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
        allowClarification: true,
      },
    });
    // No expected answer: a judge model alone asks for nothing.
    expect(parseTestRunBody({ prompt: 'q', model, judgeModel: model, allowClarification: false })).toEqual({
      success: true,
      request: { prompt: 'q', model, sql: null, databaseId: null },
    });
  });

  it.each([
    [null, { body: ['the body must be a JSON object'] }],
    [[], { body: ['the body must be a JSON object'] }],
    [{ model }, { prompt: ['prompt is required'] }],
    [{ prompt: '   ', model }, { prompt: ['prompt must not be empty'] }],
    [{ prompt: 42, model }, { prompt: ['prompt must be a string'] }],
    [{ prompt: 'q' }, { model: [expect.stringContaining('model is required')] }],
    [
      { prompt: 'q', model: 'openai:gpt-4.1' },
      { model: [expect.stringContaining('model must be an object')] },
    ],
    [{ prompt: 'q', model: { provider: 'openai' } }, { 'model.modelId': ['model.modelId is required'] }],
    [
      { prompt: 'q', model: { provider: '', modelId: 'x' } },
      { 'model.provider': ['model.provider must not be empty'] },
    ],
    [{ prompt: 'q', model, sql: 7 }, { sql: ['sql must be a string or null'] }],
    [{ prompt: 'q', model, databaseId: '' }, { databaseId: ['databaseId must not be empty'] }],
    [{ prompt: 'q', model, expectedAnswer: ' ' }, { expectedAnswer: ['expectedAnswer must not be empty'] }],
    [
      { prompt: 'q', model, judgeModel: 'openai:gpt-4.1' },
      { judgeModel: [expect.stringContaining('judgeModel must be an object')] },
    ],
    [
      { prompt: 'q', model, allowClarification: 'yes' },
      { allowClarification: ['allowClarification must be true or false'] },
    ],
  ])('refuses %j with field messages', (body, fields) => {
    const parsed = parseTestRunBody(body);
    expect(parsed).toEqual({
      success: false,
      error: expect.stringMatching(/^Invalid request body: /),
      fields,
    });
  });

  it('reports every bad field at once', () => {
    const parsed = parseTestRunBody({ prompt: '', model: { provider: 1, modelId: '' } });
    expect(parsed.success === false && Object.keys(parsed.fields).sort()).toEqual([
      'model.modelId',
      'model.provider',
      'prompt',
    ]);
  });
});
