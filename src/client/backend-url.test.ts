import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors/index.js';
import { normalizeBackendUrl } from './backend-url.js';

describe('normalizeBackendUrl', () => {
  it.each([
    ['http://localhost:5005', 'http://localhost:5005'],
    ['http://LOCALHOST:5005/', 'http://localhost:5005'],
    ['  http://127.0.0.1:5005///  ', 'http://127.0.0.1:5005'],
    ['https://nao.example.com:443/', 'https://nao.example.com'],
    ['http://nao.example.com:80', 'http://nao.example.com'],
    ['https://example.com/nao/', 'https://example.com/nao'],
    ['http://localhost:5005/?x=1#y', 'http://localhost:5005'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeBackendUrl(raw)).toBe(expected);
  });

  it.each([
    ['localhost:5005', 'is not http or https'],
    ['not a url', 'it is not a URL'],
    ['ftp://example.com', 'is not http or https'],
    ['http://user:secret@example.com', 'must not contain a user name or password'],
  ])('refuses %s', (raw, why) => {
    let caught: unknown;
    try {
      normalizeBackendUrl(raw);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toContain(why);
    expect((caught as UsageError).code).toBe('INVALID_BACKEND_URL');
  });
});
