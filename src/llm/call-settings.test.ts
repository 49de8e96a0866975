import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { isRetryableStatus } from './call-settings.js';

describe('isRetryableStatus', () => {
  // The recorder skips the answers the SDK will ask again for: both must agree on which they are.
  it.each([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529])(
    'HTTP %i is retried exactly when the SDK retries it',
    (status) => {
      const sdk = new APICallError({
        message: 'x',
        url: 'http://x',
        requestBodyValues: {},
        statusCode: status,
      });
      expect(isRetryableStatus(status)).toBe(sdk.isRetryable);
    },
  );

  it.each([
    [408, true],
    [429, true],
    [503, true],
    [400, false],
    [404, false],
  ])('HTTP %i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});
