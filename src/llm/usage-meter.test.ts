import { generateText, streamText } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textStep, usage } from '../../test-support/agent/scripted-model.js';
import { type TokenUsage, usageFromSteps } from './usage.js';
import { meteredModel } from './usage-meter.js';

const STEP_USAGE = usage({ input: 120, cacheRead: 20, output: 30, reasoning: 10 });

describe('meteredModel', () => {
  it('reports each completed call as generateText counts its step', async () => {
    const seen: TokenUsage[] = [];
    const model = new MockLanguageModelV3({ doGenerate: async () => textStep('hi', STEP_USAGE) });
    const result = await generateText({ model: meteredModel(model, (used) => seen.push(used)), prompt: 'x' });
    expect(seen).toEqual([usageFromSteps(result.steps)]);
    expect(seen[0]).toMatchObject({ inputCacheReadTokens: 20, outputReasoningTokens: 10, totalTokens: 150 });
  });

  it('reports a streamed call when it finishes', async () => {
    const seen: TokenUsage[] = [];
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'hi' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: STEP_USAGE },
          ],
        }),
      }),
    });
    const result = streamText({ model: meteredModel(model, (used) => seen.push(used)), prompt: 'x' });
    await result.consumeStream();
    expect(seen).toEqual([usageFromSteps(await result.steps)]);
  });
});
