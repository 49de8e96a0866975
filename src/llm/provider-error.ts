import { NaoError } from '../errors/index.js';

/** Why a provider call failed for good. */
export type ProviderFailure = 'http' | 'timeout' | 'network';

/**
 * A model call that failed after nao's own retries (or at once, when retrying cannot help).
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
  /** Attempts made, the first one included. */
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
    // the original error may carry request details; its text is already in the message.
    super({ code: options.code ?? 'PROVIDER_ERROR', message: options.message });
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.status = options.status;
    this.providerMessage = options.providerMessage;
    this.failure = options.failure;
    this.attempts = options.attempts;
  }
}

/** A provider that did not answer within the per-attempt timeout, on every attempt. */
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

/**
 * The `ProviderError` behind an error, if any. A failure inside a streamed answer reaches
 * callers wrapped by the SDK (an `APICallError` whose cause is ours); this unwraps it.
 */
export function findProviderError(error: unknown): ProviderError | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    if (current instanceof ProviderError) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
