import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { resolveTestRunOptions } from './test-run-options.js';

function resolve(options: { flags?: Parameters<typeof resolveTestRunOptions>[0]['flags']; config?: string }) {
  return resolveTestRunOptions({
    flags: options.flags ?? {},
    config: parseConfig({ text: options.config ?? '', projectDir: '/projects/shop', env: {} }),
    env: {},
  });
}

describe('resolveTestRunOptions: the wall-clock limit of a run', () => {
  it('limits every run to 15 minutes without --timeout', () => {
    expect(resolve({}).timeoutMs).toBe(900_000);
  });

  it('takes test.timeout_s, and --timeout over it', () => {
    expect(resolve({ config: 'test:\n  timeout_s: 120\n' }).timeoutMs).toBe(120_000);
    expect(resolve({ config: 'test:\n  timeout_s: 120\n', flags: { timeout: '2.5' } }).timeoutMs).toBe(2500);
  });
});
