import { describe, expect, it } from 'vitest';
import { isLoopbackRedirect, withQuery } from './loopback-redirect.js';

describe('isLoopbackRedirect', () => {
  it.each([
    'http://127.0.0.1:49152/callback',
    'http://localhost:8080/callback',
    'http://[::1]:3000/cb',
    'http://127.0.0.1:1/',
  ])('accepts the loopback address %s', (uri) => {
    expect(isLoopbackRedirect(uri)).toBe(true);
  });

  it.each([
    ['another machine', 'http://evil.example:49152/callback'],
    ['https to an outside host', 'https://127.0.0.1.evil.example/callback'],
    ['no port', 'http://127.0.0.1/callback'],
    ['credentials in the URL', 'http://user:pw@127.0.0.1:49152/callback'],
    ['a query of its own', 'http://127.0.0.1:49152/callback?code=planted'],
    ['a fragment', 'http://127.0.0.1:49152/callback#x'],
    ['another scheme', 'javascript:alert(1)'],
    ['a private network address', 'http://192.168.1.10:49152/callback'],
    ['not a URL', 'callback'],
  ])('refuses %s', (_label, uri) => {
    expect(isLoopbackRedirect(uri)).toBe(false);
  });
});

describe('withQuery', () => {
  it('adds encoded parameters', () => {
    expect(withQuery('http://127.0.0.1:5/callback', { code: 'a+b/c', state: 's t' })).toBe(
      'http://127.0.0.1:5/callback?code=a%2Bb%2Fc&state=s+t',
    );
  });
});
