import { afterEach, describe, expect, it, vi } from 'vitest';
import { skipWhenMissing } from './local-servers.js';

describe('skipWhenMissing', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('skips a missing service on a machine that does not require it, and says why', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(skipWhenMissing({ tests: 'the X tests', missing: 'no X at 127.0.0.1:1', required: false })).toBe(
      true,
    );
    expect(warn).toHaveBeenCalledWith(
      'Skipping the X tests: no X at 127.0.0.1:1 (set NAO_REQUIRE_SERVERS=1 to fail instead).',
    );
  });

  it('runs the tests when NAO_REQUIRE_SERVERS asks for it, so they fail rather than skip in CI', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(skipWhenMissing({ tests: 'the X tests', missing: 'no X at 127.0.0.1:1', required: true })).toBe(
      false,
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('runs the tests when nothing is missing', () => {
    expect(skipWhenMissing({ tests: 'the X tests', missing: undefined, required: false })).toBe(false);
  });
});
