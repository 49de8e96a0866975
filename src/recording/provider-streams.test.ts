/**
 * Record and replay under the real provider packages, streamed (SSE) and not, for each wire
 * protocol the test server speaks: what the SDK reads back from a replay must be what it read live.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateText, streamText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test-support/llm-server/index.js';
import { type OpenAIApi, resolveModel } from '../llm/index.js';
import { createRecorder, type Recorder } from './recorder.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let dir: string;
let server: TestLlmServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-provider-streams-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function model(options: {
  recorder: Recorder;
  modelString: string;
  baseUrl: string;
  openaiApi?: OpenAIApi;
  env?: Record<string, string>;
}) {
  return resolveModel({
    modelString: options.modelString,
    config: {
      llm: {
        providers: [
          { provider: 'openai', base_url: options.baseUrl, models: [] },
          { provider: 'anthropic', base_url: options.baseUrl, models: [] },
        ],
      },
    },
    env: options.env ?? { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY },
    fetch: options.recorder.fetch,
    allowMissingKey: options.recorder.isReplaying,
    ...(options.openaiApi === undefined ? {} : { openaiApi: options.openaiApi }),
  });
}

describe.each([
  ['openai:gpt-4.1', 'responses' as const],
  ['openai:gpt-4.1', 'chat' as const],
  ['anthropic:claude-sonnet-4-5', undefined],
])('%s (%s)', (modelString, openaiApi) => {
  it.each([
    ['streamed', true],
    ['not streamed', false],
  ])('%s: replays the same text and usage, without a key', async (_label, stream) => {
    server = await startTestLlmServer({
      script: [{ text: 'Revenue was 202201.54.', usage: { input: 321, output: 12 } }],
    });
    const baseUrl = server.url;
    const ask = async (recorder: Recorder, env?: Record<string, string>) => {
      const resolved = model({
        recorder,
        modelString,
        baseUrl,
        env,
        ...(openaiApi === undefined ? {} : { openaiApi }),
      });
      const options = {
        model: resolved.model,
        prompt: 'What is the total revenue?',
        ...resolved.callSettings,
      };
      return recorder.withRun({ test: 'total_revenue', model: modelString, attempt: 1 }, async () => {
        if (!stream) {
          const result = await generateText(options);
          return { text: result.text, usage: result.usage.inputTokens, output: result.usage.outputTokens };
        }
        const result = streamText(options);
        return {
          text: await result.text,
          usage: (await result.usage).inputTokens,
          output: (await result.usage).outputTokens,
        };
      });
    };

    const live = await ask(createRecorder({ recordingsDir: dir, mode: 'record' }));
    expect(live).toEqual({ text: 'Revenue was 202201.54.', usage: 321, output: 12 });
    await server.close();
    server = undefined;

    const replayed = await ask(createRecorder({ recordingsDir: dir, mode: 'replay' }), {});
    expect(replayed).toEqual(live);

    const file = createRecorder({ recordingsDir: dir, mode: 'replay' }).filePath({
      test: 'total_revenue',
      model: modelString,
      attempt: 1,
    });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(KEY);
    if (stream) expect(text).toContain('"content_type": "text/event-stream');
  });
});
