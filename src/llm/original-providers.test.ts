import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { parseConfig } from '../config/index.js';
import { PROVIDER_DEFINITIONS } from './providers.js';
import { resolveModel } from './resolve-model.js';

/** The providers of the original nao's `nao_config.yaml`, as a project written for it spells them. */
let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function configOf(yaml: string, env: Record<string, string> = {}) {
  return parseConfig({ text: yaml, projectDir: '/project', env });
}

describe('providers of the original nao', () => {
  it.each([
    ['requesty', 'https://router.requesty.ai/v1', 'REQUESTY_API_KEY'],
    ['qwen', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', 'DASHSCOPE_API_KEY'],
    ['minimax', 'https://api.minimax.io/v1', 'MINIMAX_API_KEY'],
    ['moonshot', 'https://api.moonshot.ai/v1', 'MOONSHOT_API_KEY'],
  ] as const)(
    '%s: its OpenAI-compatible API, its default base URL and key variable',
    async (kind, url, keyEnv) => {
      expect(PROVIDER_DEFINITIONS[kind].defaultBaseUrl).toBe(url);
      expect(PROVIDER_DEFINITIONS[kind].keyEnv).toEqual([keyEnv]);
      server = await startTestLlmServer({ script: [{ text: `hello from ${kind}` }] });
      const config = configOf(
        `llm:\n  providers:\n    - provider: ${kind}\n      base_url: ${server.url}\n      api_key: "{{ env('${keyEnv}') }}"\n`,
        { [keyEnv]: `key-of-${kind}` },
      );
      const resolved = resolveModel({ modelString: `${kind}:some-model`, config, env: {} });
      const result = await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 });
      expect(result.text).toBe(`hello from ${kind}`);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer key-of-${kind}`);
      expect(server.requests[0]?.body.model).toBe('some-model');
    },
  );

  it('reads the legacy single-provider block and uses its key', async () => {
    server = await startTestLlmServer({ script: [{ text: 'legacy ok' }] });
    const config = configOf(
      `llm:\n  provider: openai\n  api_key: sk-legacy-123\n  base_url: ${server.url}\n`,
    );
    const resolved = resolveModel({ modelString: 'openai:gpt-4.1', config, env: {}, openaiApi: 'chat' });
    await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-legacy-123');
  });

  it('calls an unnamed openai-compatible entry as openaiCompatible:<model>', async () => {
    server = await startTestLlmServer({ script: [{ text: 'compatible ok' }] });
    const config = configOf(
      `llm:\n  providers:\n    - provider: openai-compatible\n      base_url: ${server.url}\n`,
    );
    const resolved = resolveModel({ modelString: 'openaiCompatible:llama-3', config, env: {} });
    expect((await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 })).text).toBe(
      'compatible ok',
    );
  });

  it('reads gemini as the google provider', () => {
    const config = configOf('llm:\n  providers:\n    - provider: gemini\n      api_key: g-key\n');
    expect(resolveModel({ modelString: 'gemini:gemini-2.5-flash', config, env: {} })).toMatchObject({
      id: 'google:gemini-2.5-flash',
      kind: 'google',
    });
  });

  it('names the unset variable and the key when a run needs the key', () => {
    const config = configOf("llm:\n  provider: anthropic\n  api_key: {{ env('ANTHROPIC_API_KEY') }}\n");
    expect(() => resolveModel({ modelString: 'anthropic:claude-sonnet-4-5', config, env: {} })).toThrow(
      "No API key for anthropic:claude-sonnet-4-5: llm.providers[0].api_key uses {{ env('ANTHROPIC_API_KEY') }} (ANTHROPIC_API_KEY is not set)",
    );
  });

  it.each(['bedrock', 'vertex'])('refuses a %s model at the run that uses it', (kind) => {
    const config = configOf(`llm:\n  providers:\n    - provider: ${kind}\n`);
    expect(() => resolveModel({ modelString: `${kind}:m`, config, env: {} })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_UNSUPPORTED' }),
    );
  });
});
