import { describe, expect, it } from 'vitest';
import { callbackUrl, cliLoginParams } from './original-cli-login.js';

describe('cliLoginParams', () => {
  it.each([
    ['1', 1],
    ['49152', 49152],
    ['65535', 65535],
    // The original's page takes any digits: a leading zero is still that port.
    ['08080', 8080],
  ])('takes port %j', (port, expected) => {
    expect(cliLoginParams({ port, state: 's' })).toEqual({
      success: true,
      params: { port: expected, state: 's' },
    });
  });

  it.each([
    ['0'],
    ['65536'],
    ['123456'],
    ['-1'],
    ['80.5'],
    [' 80'],
    ['evil.example'],
    ['127.0.0.1:80'],
    ['http://evil.example/'],
    [''],
    [undefined],
    [['80']],
  ])('refuses port %j', (port) => {
    expect(cliLoginParams({ port, state: 's' })).toMatchObject({
      success: false,
      error: expect.stringContaining('port'),
    });
  });

  it.each([
    ['an empty one', ''],
    ['none', undefined],
    ['one of 513 characters', 'x'.repeat(513)],
    ['a list', ['s']],
  ])('refuses %s as the state', (_label, state) => {
    expect(cliLoginParams({ port: '80', state })).toMatchObject({
      success: false,
      error: expect.stringContaining('state'),
    });
  });

  it('sends the browser only to the loopback callback of that port', () => {
    expect(callbackUrl(49152)).toBe('http://127.0.0.1:49152/callback');
  });
});
