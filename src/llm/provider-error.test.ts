import { describe, expect, it } from 'vitest';
import { NaoError } from '../errors/index.js';
import {
  findProviderError,
  ProviderError,
  ProviderTimeoutError,
  providerMessageOf,
  redactSecrets,
} from './provider-error.js';

describe('providerMessageOf', () => {
  it.each([
    [
      'OpenAI',
      { error: { message: 'Rate limit reached for gpt-4.1', type: 'requests', code: 'rate_limit_exceeded' } },
      'Rate limit reached for gpt-4.1 (rate_limit_exceeded)',
    ],
    [
      'Anthropic',
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      'Overloaded (overloaded_error)',
    ],
    [
      'Google',
      { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } },
      'API key not valid. (INVALID_ARGUMENT)',
    ],
    [
      'Mistral',
      { object: 'error', message: 'Unauthorized', type: 'invalid_request_error' },
      'Unauthorized (invalid_request_error)',
    ],
    ['vLLM / FastAPI', { detail: 'Not Found' }, 'Not Found'],
    [
      'Ollama',
      { error: 'model "llama9" not found, try pulling it first' },
      'model "llama9" not found, try pulling it first',
    ],
    [
      'a kind already in the message',
      { error: { message: 'invalid_api_key: bad', code: 'invalid_api_key' } },
      'invalid_api_key: bad',
    ],
    ['an unknown JSON shape', { oops: true }, '{"oops":true}'],
  ])('reads the %s error shape', (_name, body, expected) => {
    expect(providerMessageOf(JSON.stringify(body))).toBe(expected);
  });

  it.each([
    [
      'HTML from a proxy',
      '<html>\n  <body>502 Bad Gateway</body>\n</html>',
      '<html> <body>502 Bad Gateway</body> </html>',
    ],
    ['an empty body', '   ', '(empty response body)'],
  ])('keeps %s as one line of text', (_name, body, expected) => {
    expect(providerMessageOf(body)).toBe(expected);
  });

  it('clips very long bodies', () => {
    const message = providerMessageOf('x'.repeat(5000));
    expect(message).toHaveLength(500);
    expect(message.endsWith('...')).toBe(true);
  });
});

describe('redactSecrets', () => {
  it.each([
    [
      'a given secret',
      'key my-private-key-1 was rejected',
      ['my-private-key-1'],
      'key [redacted] was rejected',
    ],
    ['every occurrence', 'abcdefgh and abcdefgh', ['abcdefgh'], '[redacted] and [redacted]'],
    [
      'a bearer token',
      'header Bearer eyJhbGciOiJIUzI1NiJ9.x.y was bad',
      [],
      'header Bearer [redacted] was bad',
    ],
    [
      'an sk- key',
      'Incorrect API key provided: sk-proj-abcdefghijklmnop1234',
      [],
      'Incorrect API key provided: [redacted]',
    ],
    ['a Google key', 'key=AIzaSyA1234567890abcdefghijklmnopqrstu', [], 'key=[redacted]'],
    [
      'an already masked key',
      'Incorrect API key provided: sk-abc***xyz',
      [],
      'Incorrect API key provided: sk-abc***xyz',
    ],
    ['short secrets (they would eat words)', 'the key', ['key'], 'the key'],
  ])('removes %s', (_name, text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });
});

describe('ProviderError', () => {
  it('is a NaoError with a stable code and the failure details', () => {
    const error = new ProviderError({
      provider: 'openai',
      modelId: 'gpt-4.1',
      status: 429,
      providerMessage: 'slow down',
      failure: 'http',
      attempts: 5,
      message: 'openai:gpt-4.1 failed',
    });
    expect(error).toBeInstanceOf(NaoError);
    expect(error.name).toBe('ProviderError');
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status: 429, attempts: 5, failure: 'http' });
  });

  it('has a timeout variant that is still a ProviderError', () => {
    const error = new ProviderTimeoutError({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      providerMessage: 'no answer',
      attempts: 2,
      message: 'timed out',
    });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_TIMEOUT',
      failure: 'timeout',
      status: null,
      name: 'ProviderTimeoutError',
    });
  });
});

describe('findProviderError', () => {
  const ours = new ProviderError({
    provider: 'openai',
    modelId: 'gpt-4.1',
    status: 500,
    providerMessage: 'boom',
    failure: 'http',
    attempts: 1,
    message: 'boom',
  });

  it.each([
    ['the error itself', ours, ours],
    ['a wrapped error', new Error('Failed to process successful response', { cause: ours }), ours],
    ['a twice-wrapped error', new Error('a', { cause: new Error('b', { cause: ours }) }), ours],
    ['an unrelated error', new Error('other'), undefined],
    ['a non-error', 'text', undefined],
  ])('finds it in %s', (_name, error, expected) => {
    expect(findProviderError(error)).toBe(expected);
  });

  it('stops on a cause cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(findProviderError(a)).toBeUndefined();
  });
});
