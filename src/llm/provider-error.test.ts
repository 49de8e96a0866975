import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { NaoError } from '../errors/index.js';
import {
  explainProviderFailure,
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

describe('explainProviderFailure', () => {
  const context = { provider: 'openai', modelId: 'gpt-4.1', secrets: ['sk-live-0123456789'] };
  const ours = new ProviderError({
    provider: 'openai',
    modelId: 'gpt-4.1',
    status: null,
    providerMessage: 'connect ECONNREFUSED',
    failure: 'network',
    attempts: 1,
    message: 'openai:gpt-4.1 could not be reached',
  });
  const http = (statusCode: number, responseBody: string) =>
    new APICallError({
      message: 'from the SDK',
      url: 'https://api.openai.com/v1/responses',
      requestBodyValues: {},
      statusCode,
      responseBody,
    });

  it.each([
    ['a ProviderError itself', ours],
    ['a ProviderError the SDK wrapped', new Error('Failed to process successful response', { cause: ours })],
    [
      'a ProviderError after a retried failure',
      new RetryError({ message: 'x', reason: 'errorNotRetryable', errors: [http(500, ''), ours] }),
    ],
  ])('keeps %s', (_name, error) => {
    expect(explainProviderFailure(error, context)).toBe(ours);
  });

  it.each([
    [
      'a recording error (it has a code too)',
      new NaoError({ code: 'RECORDING_MISSING', message: 'no recording' }),
    ],
    ['an abort', new DOMException('This operation was aborted', 'AbortError')],
    ['a plain error', new Error('tool failed')],
    ['a non-error', 'text'],
  ])('returns %s as it is', (_name, error) => {
    expect(explainProviderFailure(error, context)).toBe(error);
  });

  it('reads the status and body of the last attempt and counts the attempts', () => {
    const error = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [
        http(500, 'boom'),
        http(502, 'gateway'),
        http(429, '{"error":{"message":"slow down sk-live-0123456789"}}'),
      ],
    });
    expect(explainProviderFailure(error, context)).toMatchObject({
      status: 429,
      attempts: 3,
      providerMessage: 'slow down [redacted]',
      message:
        'openai:gpt-4.1 failed with HTTP 429 after 3 attempts: slow down [redacted] The provider is rate limiting: run fewer tests in parallel (--threads) or try later.',
    });
  });

  it('names a connection that broke while the answer was read', () => {
    const broken = new TypeError('terminated', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(explainProviderFailure(broken, context)).toMatchObject({
      failure: 'network',
      message: 'openai:gpt-4.1: the connection broke off: terminated: other side closed.',
    });
  });
});
