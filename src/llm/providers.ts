import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ProviderKind } from '../config/schema.js';
import type { FetchFunction } from './fail-fast-fetch.js';

/** An AI SDK model instance (never a gateway id string). */
export type LanguageModelInstance = Exclude<LanguageModel, string>;

/** Which OpenAI endpoint serves `openai:` models; the SDK's default is the Responses API. */
export type OpenAIApi = 'responses' | 'chat';

export interface CreateModelOptions {
  modelId: string;
  apiKey: string | undefined;
  baseURL: string;
  fetch: FetchFunction;
  /** Provider name in SDK metadata: the kind, or the openaiCompatible entry's name. */
  name: string;
  openaiApi: OpenAIApi;
}

export interface ProviderDefinition {
  /** Used when the config entry has no `base_url`; empty when the entry must give one. */
  defaultBaseUrl: string;
  /**
   * Environment variables holding the key, in the order they are read. Empty for the providers
   * that need no key (a local Ollama, a gateway); every other provider requires one.
   */
  keyEnv: readonly string[];
  create(options: CreateModelOptions): LanguageModelInstance;
}

function compatible(options: CreateModelOptions): LanguageModelInstance {
  return createOpenAICompatible({
    name: options.name,
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    fetch: options.fetch,
    // Without it, streamed answers carry no token counts and costs would be unknown.
    includeUsage: true,
    // OpenRouter, Ollama (>= 0.5), vLLM and LiteLLM accept json_schema response formats.
    supportsStructuredOutputs: true,
  }).chatModel(options.modelId);
}

type VendorSettings = Pick<CreateModelOptions, 'apiKey' | 'baseURL' | 'fetch'>;

/** A vendor package's provider, called with the model id (Anthropic, Google, Mistral). */
function vendor(
  createProvider: (settings: VendorSettings) => (modelId: string) => LanguageModelInstance,
): ProviderDefinition['create'] {
  return ({ apiKey, baseURL, fetch, modelId }) => createProvider({ apiKey, baseURL, fetch })(modelId);
}

/**
 * How each provider kind becomes an AI SDK model. Base URLs are always passed explicitly so
 * the SDKs never read OPENAI_BASE_URL-style variables from the process environment.
 */
export const PROVIDER_DEFINITIONS: Record<ProviderKind, ProviderDefinition> = {
  openai: {
    defaultBaseUrl: 'https://api.openai.com/v1',
    keyEnv: ['OPENAI_API_KEY'],
    create: (options) => {
      const provider = createOpenAI({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        fetch: options.fetch,
      });
      return options.openaiApi === 'chat'
        ? provider.chat(options.modelId)
        : provider.responses(options.modelId);
    },
  },
  anthropic: {
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    keyEnv: ['ANTHROPIC_API_KEY'],
    create: vendor(createAnthropic),
  },
  google: {
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keyEnv: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    create: vendor(createGoogleGenerativeAI),
  },
  mistral: {
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    keyEnv: ['MISTRAL_API_KEY'],
    create: vendor(createMistral),
  },
  openrouter: {
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: ['OPENROUTER_API_KEY'],
    create: compatible,
  },
  ollama: { defaultBaseUrl: 'http://localhost:11434/v1', keyEnv: [], create: compatible },
  openaiCompatible: { defaultBaseUrl: '', keyEnv: [], create: compatible },
  // Providers the original nao reaches through their OpenAI-compatible chat APIs.
  requesty: {
    defaultBaseUrl: 'https://router.requesty.ai/v1',
    keyEnv: ['REQUESTY_API_KEY'],
    create: compatible,
  },
  qwen: {
    // Model Studio keys are regional: another region needs its `base_url`.
    defaultBaseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    keyEnv: ['DASHSCOPE_API_KEY'],
    create: compatible,
  },
  minimax: { defaultBaseUrl: 'https://api.minimax.io/v1', keyEnv: ['MINIMAX_API_KEY'], create: compatible },
  moonshot: {
    defaultBaseUrl: 'https://api.moonshot.ai/v1',
    keyEnv: ['MOONSHOT_API_KEY'],
    create: compatible,
  },
};
