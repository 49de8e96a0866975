import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import type { LanguageModelInstance } from './providers.js';
import { type TokenUsage, usageFromSdk } from './usage.js';

type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type ProviderUsage = Awaited<ReturnType<ModelV3['doGenerate']>>['usage'];

/**
 * `model`, reporting the usage of every call it completes to `onUsage` as the call ends. A
 * run that is cut short (a timeout, Ctrl-C) rejects without the SDK's step results, but the
 * calls that completed were paid for: this is how the run still knows what they used.
 */
export function meteredModel(
  model: LanguageModelInstance,
  onUsage: (usage: TokenUsage) => void,
): LanguageModelInstance {
  if (model.specificationVersion !== 'v3') return model;
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate }) => {
      const result = await doGenerate();
      onUsage(fromProvider(result.usage));
      return result;
    },
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === 'finish') onUsage(fromProvider(part.usage));
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
  return wrapLanguageModel({ model, middleware });
}

/** The provider's usage record in the SDK's terms (as `generateText` reports a step's). */
function fromProvider(usage: ProviderUsage): TokenUsage {
  return usageFromSdk({
    inputTokens: usage.inputTokens.total,
    inputTokenDetails: {
      noCacheTokens: usage.inputTokens.noCache,
      cacheReadTokens: usage.inputTokens.cacheRead,
      cacheWriteTokens: usage.inputTokens.cacheWrite,
    },
    outputTokens: usage.outputTokens.total,
    outputTokenDetails: {
      textTokens: usage.outputTokens.text,
      reasoningTokens: usage.outputTokens.reasoning,
    },
    totalTokens: undefined,
  });
}
