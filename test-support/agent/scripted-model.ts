import { MockLanguageModelV3 } from 'ai/test';

export type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
export type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
export type ScriptedStep = GenerateResult | ((call: CallOptions) => GenerateResult | Promise<GenerateResult>);

/** A mock model answering each call with the next scripted step; a function step sees the prompt so far. */
export function scriptedModel(steps: ScriptedStep[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted-model',
    doGenerate: async (call) => {
      const step = steps[next++];
      if (step === undefined) throw new Error(`the script has only ${steps.length} steps`);
      return typeof step === 'function' ? step(call) : step;
    },
  });
}

export function usage(tokens: {
  input?: number;
  noCache?: number;
  cacheRead?: number;
  cacheWrite?: number;
  output?: number;
  reasoning?: number;
}): GenerateResult['usage'] {
  const input = tokens.input ?? 0;
  const cacheRead = tokens.cacheRead ?? 0;
  const cacheWrite = tokens.cacheWrite ?? 0;
  const output = tokens.output ?? 0;
  const reasoning = tokens.reasoning ?? 0;
  return {
    inputTokens: {
      total: input,
      noCache: tokens.noCache ?? input - cacheRead - cacheWrite,
      cacheRead,
      cacheWrite,
    },
    outputTokens: { total: output, text: output - reasoning, reasoning },
  };
}

const SMALL_USAGE = usage({ input: 10, output: 5 });

export function toolCallStep(
  calls: { toolName: string; input: unknown; toolCallId?: string }[],
  stepUsage: GenerateResult['usage'] = SMALL_USAGE,
): GenerateResult {
  return {
    content: calls.map((call, index) => ({
      type: 'tool-call' as const,
      toolCallId:
        call.toolCallId ?? `call_${call.toolName}_${index}_${Math.random().toString(16).slice(2, 8)}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: stepUsage,
    warnings: [],
  };
}

export function textStep(text: string, stepUsage: GenerateResult['usage'] = SMALL_USAGE): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: stepUsage,
    warnings: [],
  };
}

/** The outputs of the tool results the model received in its latest prompt message. */
export function lastToolOutputs(call: CallOptions): unknown[] {
  const last = call.prompt[call.prompt.length - 1];
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []));
}

/** Calls a tool's `execute` as the SDK would, for tests of one tool. */
export async function callTool<INPUT, OUTPUT>(
  tool: import('ai').Tool<INPUT, OUTPUT>,
  input: INPUT,
  abortSignal?: AbortSignal,
): Promise<OUTPUT> {
  if (tool.execute === undefined) throw new Error('the tool has no execute');
  const options = {
    toolCallId: 'test-call',
    messages: [],
    ...(abortSignal === undefined ? {} : { abortSignal }),
  };
  return (await tool.execute(input, options)) as OUTPUT;
}
