import { UsageError } from '../errors/index.js';
import { httpFetch, isBufferedResponse, NULL_BODY_STATUSES } from './http-fetch.js';
import { ProviderError, ProviderTimeoutError, providerMessageOf, redactSecrets } from './provider-error.js';

export type FetchFunction = typeof globalThis.fetch;

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Ceiling of the first backoff wait; it doubles on every retry. Default 1 s. */
  baseDelayMs?: number;
  /** Ceiling of any one backoff wait. Default 30 s. */
  maxDelayMs?: number;
  /** A `Retry-After` asking for longer than this fails the call at once instead of stalling the run. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Waits between attempts; must reject with `signal.reason` when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1): the jitter source. */
  random?: () => number;
  /** Epoch milliseconds: reads `Retry-After` HTTP dates. */
  now?: () => number;
  /** Told before every wait, e.g. to log "retrying in 2 s". */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  provider: string;
  modelId: string;
  /** The attempt that just failed (1 = the first). */
  attempt: number;
  delayMs: number;
  status: number | null;
  reason: string;
}

export const DEFAULT_RETRY = {
  maxRetries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const;

/** Per-attempt limit: time to the response headers, to the end of a JSON body, and between two stream chunks. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Spread into every `generateText` / `streamText` call: nao's fetch already retries, and the
 * SDK's own retries on top would multiply attempts and ignore the per-attempt timeout.
 */
export const NO_SDK_RETRIES = { maxRetries: 0 } as const;

/** Statuses worth another attempt: timeouts, conflicts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Network failures that a new attempt can fix. A refused connection is not one of them:
 * nothing listens there (typically a local Ollama or proxy that is not running), and
 * waiting would only delay the error.
 */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Milliseconds a response asks to wait (`retry-after-ms`, or `Retry-After` as seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after')?.trim();
  if (after === undefined || after === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full-jitter exponential backoff: uniform in [0, min(max, base * 2^retry)). */
export function backoffMs(options: {
  retry: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: number;
}): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** options.retry);
  return Math.floor(options.random * ceiling);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races a wait against the signal, so even an injected sleep that ignores it stops at once. */
function waitUnlessAborted(wait: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return wait;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function networkText(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current.message !== '' && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}

function originOf(input: Parameters<FetchFunction>[0]): string {
  try {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return new URL(url).origin;
  } catch {
    return '(unknown address)';
  }
}

function isReplayable(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams
  );
}

type Outcome =
  | { kind: 'response'; response: Response }
  | { kind: 'http'; status: number; headers: Headers; bodyText: string }
  | { kind: 'timeout' }
  | { kind: 'network'; code: string | undefined; text: string };

export interface RetryingFetchOptions {
  provider: string;
  modelId: string;
  /** The fetch doing the work; defaults to `httpFetch`. */
  fetch?: FetchFunction;
  retry?: RetryOptions;
  timeoutMs?: number;
  /** Strings removed from every error message (the API key). */
  secrets?: string[];
  /** Appended to 401/403 errors: where the key comes from. */
  authHint?: string;
}

/**
 * A fetch for the AI SDK providers that retries transient failures (HTTP 408, 409, 429,
 * 5xx, connection resets, timeouts) with full-jitter exponential backoff, honours
 * `Retry-After` / `retry-after-ms`, limits each attempt, stops at once when the caller's
 * signal aborts, and turns a final failure into a `ProviderError` without secrets.
 */
export function createRetryingFetch(options: RetryingFetchOptions): FetchFunction {
  const baseFetch = options.fetch ?? httpFetch;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  checkSettings({ ...retry, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  const sleep = options.retry?.sleep ?? abortableSleep;
  const random = options.retry?.random ?? Math.random;
  const now = options.retry?.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secrets = options.secrets ?? [];
  const label = `${options.provider}:${options.modelId}`;
  const redact = (text: string) => redactSecrets(text, secrets);

  const attemptOnce = async (
    input: Parameters<FetchFunction>[0],
    init: RequestInit | undefined,
  ): Promise<Outcome> => {
    const callerSignal = init?.signal ?? undefined;
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
    };
    const release = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    };
    const failed = (error: unknown): Outcome => {
      release();
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut) return { kind: 'timeout' };
      return { kind: 'network', code: networkCode(error), text: networkText(error) };
    };

    arm();
    let response: Response;
    try {
      response = await baseFetch(input, { ...init, signal: controller.signal });
    } catch (error) {
      return failed(error);
    }
    if (!response.ok) {
      let bodyText: string;
      try {
        bodyText = await response.text();
      } catch (error) {
        const outcome = failed(error);
        if (outcome.kind !== 'network') return outcome;
        bodyText = '';
      }
      release();
      return { kind: 'http', status: response.status, headers: response.headers, bodyText };
    }
    if (isBufferedResponse(response)) {
      // httpFetch read the whole body inside this attempt already.
      release();
      return { kind: 'response', response };
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (response.body === null || !contentType.includes('text/event-stream')) {
      // Read the whole JSON body inside the attempt, so a body that stalls or breaks is retried too.
      let bytes: ArrayBuffer;
      try {
        bytes = await response.arrayBuffer();
      } catch (error) {
        return failed(error);
      }
      release();
      return {
        kind: 'response',
        // The Response constructor refuses a body, even an empty one, for these statuses.
        response: new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        }),
      };
    }
    // A stream cannot be retried once handed over; the timeout becomes an idle limit between chunks.
    const reader = response.body.getReader();
    const stream = new ReadableStream<Uint8Array>({
      async pull(streamController) {
        // The clock runs only while waiting on the provider, not while the consumer is busy.
        arm();
        try {
          const { done, value } = await reader.read();
          clearTimeout(timer);
          if (done) {
            release();
            streamController.close();
          } else {
            streamController.enqueue(value);
          }
        } catch (error) {
          release();
          if (callerSignal?.aborted) {
            streamController.error(callerSignal.reason);
          } else if (timedOut) {
            streamController.error(
              new ProviderTimeoutError({
                provider: options.provider,
                modelId: options.modelId,
                providerMessage: `the stream stalled for ${timeoutMs} ms`,
                attempts: 1,
                message: `${label} stopped sending its streamed answer for ${formatSeconds(timeoutMs)} (per-attempt timeout).`,
              }),
            );
          } else {
            streamController.error(
              new ProviderError({
                provider: options.provider,
                modelId: options.modelId,
                status: response.status,
                providerMessage: redact(networkText(error)),
                failure: 'network',
                attempts: 1,
                message: `${label}: the streamed answer broke off: ${redact(networkText(error))}.`,
              }),
            );
          }
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    });
    clearTimeout(timer);
    return {
      kind: 'response',
      response: new Response(stream, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      }),
    };
  };

  const finalError = (
    outcome: Exclude<Outcome, { kind: 'response' }>,
    attempts: number,
    input: Parameters<FetchFunction>[0],
  ) => {
    const after = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (outcome.kind === 'timeout') {
      return new ProviderTimeoutError({
        provider: options.provider,
        modelId: options.modelId,
        providerMessage: `no answer within ${timeoutMs} ms`,
        attempts,
        message: `${label} did not answer within ${formatSeconds(timeoutMs)} (per-attempt timeout)${attempts > 1 ? `, on each of ${attempts} attempts` : ''}.`,
      });
    }
    if (outcome.kind === 'network') {
      const text = redact(outcome.text);
      const hint =
        outcome.code === 'ECONNREFUSED'
          ? ' Is the server running, and is base_url right?'
          : outcome.code === 'ENOTFOUND'
            ? ' Check the host name in base_url.'
            : '';
      return new ProviderError({
        provider: options.provider,
        modelId: options.modelId,
        status: null,
        providerMessage: text,
        failure: 'network',
        attempts,
        message: `${label} could not be reached at ${originOf(input)}${after}: ${text}.${hint}`,
      });
    }
    const providerMessage = redact(providerMessageOf(outcome.bodyText));
    return new ProviderError({
      provider: options.provider,
      modelId: options.modelId,
      status: outcome.status,
      providerMessage,
      failure: 'http',
      attempts,
      message: `${label} failed with HTTP ${outcome.status}${after}: ${providerMessage}${statusHint(outcome.status, options.authHint)}`,
    });
  };

  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    const maxRetries = isReplayable(init?.body) ? retry.maxRetries : 0;
    for (let attempt = 1; ; attempt++) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const outcome = await attemptOnce(input, init);
      if (outcome.kind === 'response') return outcome.response;

      const transient =
        outcome.kind === 'timeout' ||
        (outcome.kind === 'http' && isRetryableStatus(outcome.status)) ||
        (outcome.kind === 'network' &&
          outcome.code !== undefined &&
          TRANSIENT_NETWORK_CODES.has(outcome.code));
      if (!transient || attempt > maxRetries) throw finalError(outcome, attempt, input);

      let delayMs = backoffMs({
        retry: attempt - 1,
        baseDelayMs: retry.baseDelayMs,
        maxDelayMs: retry.maxDelayMs,
        random: random(),
      });
      if (outcome.kind === 'http') {
        const asked = retryAfterMs(outcome.headers, now());
        if (asked !== undefined && asked > retry.maxRetryAfterMs) {
          const error = finalError(outcome, attempt, input);
          throw new ProviderError({
            provider: error.provider,
            modelId: error.modelId,
            status: error.status,
            providerMessage: error.providerMessage,
            failure: error.failure,
            attempts: attempt,
            message: `${error.message} The provider asked to wait ${formatSeconds(asked)} before retrying, more than the ${formatSeconds(retry.maxRetryAfterMs)} nao waits.`,
          });
        }
        if (asked !== undefined) delayMs = asked;
      }
      options.retry?.onRetry?.({
        provider: options.provider,
        modelId: options.modelId,
        attempt,
        delayMs,
        status: outcome.kind === 'http' ? outcome.status : null,
        reason:
          outcome.kind === 'http'
            ? `HTTP ${outcome.status}`
            : outcome.kind === 'timeout'
              ? 'timeout'
              : (outcome.code ?? 'network error'),
      });
      await waitUnlessAborted(sleep(delayMs, callerSignal), callerSignal);
    }
  };
}

/** Rejects settings that would silently disable retries or time out every call. */
function checkSettings(settings: {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  timeoutMs: number;
}): void {
  const problems: string[] = [];
  if (!Number.isInteger(settings.maxRetries) || settings.maxRetries < 0) {
    problems.push(`maxRetries must be an integer >= 0, got ${settings.maxRetries}`);
  }
  for (const name of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(settings[name]) || settings[name] < 0) {
      problems.push(`${name} must be a number >= 0, got ${settings[name]}`);
    }
  }
  if (!Number.isFinite(settings.timeoutMs) || settings.timeoutMs <= 0) {
    problems.push(`the per-attempt timeout must be a number of milliseconds > 0, got ${settings.timeoutMs}`);
  }
  if (problems.length > 0) {
    throw new UsageError({
      code: 'INVALID_RETRY_SETTINGS',
      message: `Invalid LLM retry settings: ${problems.join('; ')}.`,
    });
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function statusHint(status: number, authHint: string | undefined): string {
  if (status === 401 || status === 403)
    return authHint === undefined ? '' : ` Check the API key (${authHint}).`;
  if (status === 404) return ' Check the model id and the base_url of the provider.';
  if (status === 429)
    return ' The provider is rate limiting: run fewer tests in parallel (--threads) or try later.';
  if (status >= 500) return ' The provider had a server error; try again later.';
  return '';
}
