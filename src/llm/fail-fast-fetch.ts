import {
  isBlockedPort,
  networkCode,
  networkText,
  originOf,
  ProviderError,
  redactSecrets,
} from './provider-error.js';
import { limitResponseSize } from './response-size-limit.js';

export type FetchFunction = typeof globalThis.fetch;

/** Nothing listens there (a local Ollama or proxy that is not running), or the host does not exist. */
const UNREACHABLE_HINTS: Record<string, string> = {
  ECONNREFUSED: ' Is the server running, and is base_url right?',
  ENOTFOUND: ' Check the host name in base_url.',
};

/**
 * The fetch given to the provider packages: the standard one (or the injected one: tests,
 * record/replay), with answers cut at `MAX_RESPONSE_BYTES` (response-size-limit.ts), and a
 * refused connection, an unknown host or a port fetch refuses failing at once with a hint.
 * The SDK retries every network failure, and waiting 30 s to retry these would only delay the
 * error; a `ProviderError` is not an `APICallError`, so the SDK passes it on without retrying.
 */
export function failFastFetch(options: {
  provider: string;
  modelId: string;
  fetch?: FetchFunction;
  /** Strings removed from the message (the API key). */
  secrets: readonly string[];
}): FetchFunction {
  return async (input, init) => {
    try {
      // Looked up per call, as the provider packages do, so a fetch installed later is used.
      const response = await (options.fetch ?? globalThis.fetch)(input, init);
      return limitResponseSize(response, { provider: options.provider, modelId: options.modelId });
    } catch (error) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const hint = isBlockedPort(error)
        ? ` Node's fetch never connects to port ${portOf(url)}, which the fetch standard blocks: serve the provider on another port and change base_url.`
        : UNREACHABLE_HINTS[networkCode(error) ?? ''];
      if (hint === undefined) throw error;
      const text = redactSecrets(networkText(error), options.secrets);
      throw new ProviderError({
        provider: options.provider,
        modelId: options.modelId,
        status: null,
        providerMessage: text,
        failure: 'network',
        attempts: 1,
        message: `${options.provider}:${options.modelId} could not be reached at ${originOf(url)}: ${text}.${hint}`,
      });
    }
  };
}

function portOf(url: string): string {
  return URL.canParse(url) ? new URL(url).port : '(unknown)';
}
