import type { TimeoutConfiguration } from 'ai';

/** Spread into every `generateText` / `streamText` call of a provider model. */
export interface ModelCallSettings {
  /** Retries after the first attempt, by the SDK: exponential backoff from 2 s, or what `Retry-After` asks (under 60 s). */
  maxRetries: number;
  timeout: TimeoutConfiguration;
}

/**
 * A step is one model call with its retries and the tools it asked for; its limit only stops a
 * provider that never answers. Streamed answers (the chat page) also stop when no chunk comes for
 * `chunkMs`; the tools of a streamed step run inside that gap too.
 */
export const DEFAULT_CALL_SETTINGS: ModelCallSettings = {
  maxRetries: 4,
  timeout: { stepMs: 600_000, chunkMs: 120_000 },
};

/** Statuses the SDK retries (its `APICallError.isRetryable`): timeouts, conflicts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
