import { describe, expect, it } from 'vitest';
import type { NaoConfig } from '../config/index.js';
import { chatModels } from './chat-routes.js';

function config(models: string[], providers: NaoConfig['llm']['providers']): NaoConfig {
  return {
    projectDir: '/p',
    configPath: '/p/nao_config.yaml',
    projectName: 'p',
    databases: [],
    unavailableDatabases: [],
    llm: { providers },
    test: {
      models,
      threads: 1,
      failFast: false,
      comparison: {} as NaoConfig['test']['comparison'],
      timeoutMs: 900_000,
    },
    agent: { maxSteps: 20, maxResultRows: 1000, queryTimeoutMs: 300_000, queryMemoryLimit: '25%' },
    warnings: [],
  };
}

describe('chatModels', () => {
  it('offers the test models first, then every configured model, each once', () => {
    const models = chatModels(
      config(
        ['anthropic:claude-sonnet-4-5', 'openai:gpt-4.1'],
        [
          { provider: 'openai', models: [{ id: 'gpt-4.1' }, { id: 'gpt-4.1-mini' }] },
          {
            provider: 'openaiCompatible',
            name: 'local',
            base_url: 'http://127.0.0.1:8000/v1',
            models: [{ id: 'qwen:7b' }],
          },
        ],
      ),
    );
    expect(models).toEqual([
      'anthropic:claude-sonnet-4-5',
      'openai:gpt-4.1',
      'openai:gpt-4.1-mini',
      'openaiCompatible/local:qwen:7b',
    ]);
  });

  it('offers nothing when no model is configured (the page says how to add one)', () => {
    expect(chatModels(config([], [{ provider: 'openai', models: [] }]))).toEqual([]);
  });
});
