import { APICallError, RetryError } from 'ai';
import { NaoError } from '../errors/index.js';

/** Why a provider call failed for good. */
export type ProviderFailure = 'http' | 'timeout' | 'network';

/**
 * A model call that failed after the AI SDK's retries (or at once, when retrying cannot help).
 * It names the provider, the model, the HTTP status and the provider's own message, and
 * never the API key or any request header.
 */
export class ProviderError extends NaoError {
  readonly provider: string;
  readonly modelId: string;
  /** HTTP status of the last attempt; `null` when no response arrived (timeout, network). */
  readonly status: number | null;
  /** The provider's error message (parsed from its JSON body), or the network error text. */
  readonly providerMessage: string;
  readonly failure: ProviderFailure;
  /** Attempts the SDK reports, the first one included (a timeout ends the call and counts as 1). */
  readonly attempts: number;

  constructor(options: {
    code?: string;
    provider: string;
    modelId: string;
    status: number | null;
    providerMessage: string;
    failure: ProviderFailure;
    attempts: number;
    message: string;
  }) {
    // No `cause`: the SDK re-wraps errors whose cause chain holds a network error code, and
    // the original error carries the request body and the provider's raw answer; its text is
    // already in the message.
    super({ code: options.code ?? 'PROVIDER_ERROR', message: options.message });
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.status = options.status;
    this.providerMessage = options.providerMessage;
    this.failure = options.failure;
    this.attempts = options.attempts;
  }
}

/** A model call stopped by the step or chunk timeout of the call settings. */
export class ProviderTimeoutError extends ProviderError {
  constructor(options: Omit<ConstructorParameters<typeof ProviderError>[0], 'code' | 'failure' | 'status'>) {
    super({ ...options, code: 'PROVIDER_TIMEOUT', failure: 'timeout', status: null });
  }
}

/**
 * Credentials by their look, for keys nao was not told about (a proxy echoing its upstream
 * key): bearer tokens, OpenAI/Anthropic/OpenRouter style `sk-` keys and Google `AIza` keys.
 */
const KEY_PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]'],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, '[redacted]'],
  [/\bAIza[A-Za-z0-9_-]{30,}/g, '[redacted]'],
];

/** Removes the given secrets and anything that looks like a key, so a provider echoing one leaks nothing. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    // Very short strings would redact ordinary words; real keys are long.
    if (secret.length < 6) continue;
    result = result.split(secret).join('[redacted]');
  }
  for (const [pattern, replacement] of KEY_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

const MAX_MESSAGE_CHARS = 500;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 3)}...` : oneLine;
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && field.trim() !== '' ? field : undefined;
}

/**
 * Extracts the human message of a provider error body. Knows the shapes of OpenAI and
 * OpenRouter (`error.message`, `error.code`), Anthropic (`error.type`), Google
 * (`error.status`), Mistral (`message`), vLLM/FastAPI (`detail`) and Ollama (`error` string);
 * anything else is returned as (clipped) text.
 */
export function providerMessageOf(bodyText: string): string {
  if (bodyText.trim() === '') return '(empty response body)';
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return clip(bodyText);
  }
  const error =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).error : undefined;
  if (typeof error === 'string' && error.trim() !== '') return clip(error);
  const message =
    stringField(error, 'message') ?? stringField(body, 'message') ?? stringField(body, 'detail');
  if (message === undefined) return clip(bodyText);
  const kind =
    stringField(error, 'code') ??
    stringField(error, 'type') ??
    stringField(error, 'status') ??
    stringField(body, 'type');
  return clip(kind === undefined || message.includes(kind) ? message : `${message} (${kind})`);
}

/** What `explainProviderFailure` needs to know about the model that was called. */
export interface FailureContext {
  provider: string;
  modelId: string;
  /** Strings removed from every message (the API key). */
  secrets: readonly string[];
  /** Appended to 401/403 errors: where the key came from. */
  authHint?: string;
}

/**
 * Turns what `generateText` / `streamText` threw for a provider model into a `ProviderError`
 * naming the provider, the model, the status and the provider's own message, with a hint and
 * without secrets: an HTTP or network failure (`APICallError`, or the SDK's `RetryError` once
 * its retries ran out) or a step or chunk timeout. Anything else (a caller's abort, a recording
 * error, a tool's error) is returned as it is. Call it only when the caller did not abort.
 */
export function explainProviderFailure(error: unknown, context: FailureContext): unknown {
  const model = { provider: context.provider, modelId: context.modelId };
  const label = `${context.provider}:${context.modelId}`;
  const redact = (text: string) => redactSecrets(text, context.secrets);
  let last = error;
  let attempts = 1;
  if (RetryError.isInstance(error)) {
    last = error.lastError;
    attempts = error.errors.length;
  }
  const ours = findProviderError(last);
  if (ours !== undefined) return ours;
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';

  if (isTimeout(last)) {
    const [, kind, ms] = /^(Step|Chunk) timeout of (\d+)ms/.exec(last.message) ?? [];
    const seconds = ms === undefined ? '' : `${Number((Number(ms) / 1000).toFixed(3))} s`;
    return new ProviderTimeoutError({
      ...model,
      providerMessage: last.message,
      attempts: 1,
      message:
        kind === 'Chunk'
          ? `${label} stopped sending its streamed answer for ${seconds} (chunk timeout).`
          : kind === 'Step'
            ? `${label} did not finish a step within ${seconds} (step timeout: the model call with its retries, and the tools it asked for).`
            : `${label} did not answer in time: ${last.message}.`,
    });
  }

  if (APICallError.isInstance(last) && last.statusCode !== undefined) {
    const providerMessage = redact(providerMessageOf(last.responseBody ?? last.message));
    return new ProviderError({
      ...model,
      status: last.statusCode,
      providerMessage,
      failure: 'http',
      attempts,
      message: `${label} failed with HTTP ${last.statusCode}${after}: ${providerMessage}${statusHint(last.statusCode, context.authHint)}`,
    });
  }

  const api = APICallError.isInstance(last) ? last : undefined;
  if (api !== undefined || networkCode(last) !== undefined) {
    const text = redact(networkText(api?.cause ?? last));
    return new ProviderError({
      ...model,
      status: null,
      providerMessage: text,
      failure: 'network',
      attempts,
      // Without an APICallError, the connection broke while the answer was being read (a stream cut off).
      message:
        api === undefined
          ? `${label}: the connection broke off${after}: ${text}.`
          : `${label} could not be reached at ${originOf(api.url)}${after}: ${text}.`,
    });
  }
  return error;
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

/** The SDK's step and chunk limits abort with a `TimeoutError`. */
function isTimeout(error: unknown): error is Error {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'TimeoutError';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** `error` and its causes, each once (a chain may loop), up to the first that is not an object. */
function* causeChain(error: unknown): Generator<object> {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); ) {
    seen.add(current);
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The `Error`s of the cause chain, up to the first that is not one. */
function errorChain(error: unknown): Error[] {
  const errors: Error[] = [];
  for (const current of causeChain(error)) {
    if (!(current instanceof Error)) break;
    errors.push(current);
  }
  return errors;
}

/**
 * Node's fetch refuses the ports the fetch standard blocks (6000, 6665–6669, 10080…) before it
 * connects, with this message and no code: no retry can succeed.
 */
export function isBlockedPort(error: unknown): boolean {
  return errorChain(error).some((current) => current.message === 'bad port');
}

/** The network error code on the cause chain (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...), if any. */
export function networkCode(error: unknown): string | undefined {
  const codes = errorChain(error).map((current) => (current as { code?: unknown }).code);
  return codes.find((code): code is string => typeof code === 'string' && NETWORK_CODES.has(code));
}

/** The messages of the cause chain, joined: `fetch failed: connect ECONNREFUSED 127.0.0.1:9`. */
export function networkText(error: unknown): string {
  const messages = errorChain(error).map((current) => current.message);
  return [...new Set(messages.filter((message) => message !== ''))].join(': ') || String(error);
}

export function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : '(unknown address)';
}

/** The `ProviderError` behind an error, if any, when the SDK wrapped ours (as the cause of its own). */
function findProviderError(error: unknown): ProviderError | undefined {
  return [...causeChain(error)].find((current) => current instanceof ProviderError);
}
