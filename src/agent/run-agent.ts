import {
  type AssistantModelMessage,
  type FinishReason,
  generateText,
  hasToolCall,
  type ModelMessage,
  type StepResult,
  type StopCondition,
  stepCountIs,
  streamText,
  type ToolModelMessage,
  type ToolSet,
} from 'ai';
import { DEFAULT_AGENT } from '../config/schema.js';
import { messageOf, NaoError } from '../errors/index.js';
import { type Cost, costOf, type TokenUsage, usageFromSdk, usageFromSteps } from '../llm/index.js';
import type { PricedModel } from '../llm/priced-model.js';
import type { AgentContext } from './agent-context.js';
import { CLARIFICATION_TOOL_NAME, type Clarification, type ClarificationOutput } from './clarification.js';
import { type QueryResults, randomQueryId } from './query-results.js';
import type { AgentMode } from './system-prompt.js';
import { createAgentTools } from './toolset.js';

/** The model under test; `llm/`'s resolved model fits as is. */
export type AgentModel = PricedModel;

export interface AgentToolCall {
  toolName: string;
  toolCallId: string;
  args: unknown;
  /** The tool's output; `{ error }` for a failed call; `null` when the tool never ran. */
  result: unknown;
}

export interface AgentStep {
  /** 0-based. */
  stepNumber: number;
  text: string;
  toolCalls: AgentToolCall[];
  finishReason: FinishReason;
  usage: TokenUsage;
}

/**
 * Why the run ended: the model's own reason for its last step (`stop` for a final answer),
 * `step-limit` when it still wanted tools at `maxSteps`, or `clarification` (chat mode, and
 * tests that allow it).
 */
export type AgentFinishReason = FinishReason | 'step-limit' | 'clarification';

export type ResponseMessage = AssistantModelMessage | ToolModelMessage;

export interface RunAgentOptions {
  prompt: string;
  model: AgentModel;
  mode: AgentMode;
  context: AgentContext;
  /** Earlier turns of a chat conversation, before `prompt`. */
  history?: readonly ModelMessage[];
  signal?: AbortSignal;
  /** Model calls at most. Default 20. */
  maxSteps?: number;
  /**
   * Called with each piece of answer text as the model writes it (the chat page). When set,
   * the model is called in streaming mode; `nao test` leaves it unset and waits per step.
   */
  onTextDelta?: (delta: string) => void;
  /** Called after each model call, e.g. for live progress or budgets. */
  onStep?: (step: AgentStep) => void | Promise<void>;
  /** Injectable for exact tests; must return `query_` + 8 hex characters, new on each call. */
  generateQueryId?: () => string;
  /** Milliseconds clock for `durationMs`; injectable for exact tests. */
  now?: () => number;
}

export interface AgentRunResult {
  /** The final answer (the text of the last step). */
  text: string;
  /** Assistant and tool messages of this run, to continue a conversation. */
  responseMessages: ResponseMessage[];
  steps: AgentStep[];
  /** Every tool call of every step, in order. */
  toolCalls: AgentToolCall[];
  /** Summed over every step. */
  usage: TokenUsage;
  cost: Cost | null;
  finishReason: AgentFinishReason;
  /** True when the run was cut by `maxSteps` while the model still wanted tools. */
  stepLimitReached: boolean;
  /** The question asked, when the run ended on `clarification` (modes that offer it). */
  clarification: Clarification | null;
  durationMs: number;
  /** Every successful `execute_sql` result, whole, by id. */
  queryResults: QueryResults;
}

/**
 * Runs the analytics agent on one prompt until it answers (a step without tool calls), asks
 * a clarification (the modes that offer it), or reaches `maxSteps`. Model and API errors reject; an
 * aborted `signal` rejects with its reason. Tool failures (bad SQL, refused paths) do not:
 * the model gets them as tool errors and can fix its call.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const { context, mode } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_AGENT.max_steps;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new NaoError({
      code: 'AGENT_INVALID_OPTION',
      message: `maxSteps must be a positive integer, got ${maxSteps}.`,
    });
  }
  if (options.prompt.trim() === '') {
    throw new NaoError({
      code: 'AGENT_EMPTY_PROMPT',
      message: 'The prompt is empty; give the question to answer.',
    });
  }
  options.signal?.throwIfAborted();
  const now = options.now ?? (() => performance.now());
  const started = now();

  const queryResults: QueryResults = new Map();
  // A tool cannot end the run by throwing (the SDK hands the error to the model), so it
  // aborts this controller instead and the error is rethrown once generateText returns.
  const fatal = new AbortController();
  const tools = createAgentTools({
    mode,
    context,
    queryResults,
    generateQueryId: options.generateQueryId ?? randomQueryId,
    onFatal: (error) => fatal.abort(error),
  });
  const stopWhen: StopCondition<ToolSet>[] = [stepCountIs(maxSteps)];
  if (CLARIFICATION_TOOL_NAME in tools) stopWhen.push(hasToolCall(CLARIFICATION_TOOL_NAME));
  const signal =
    options.signal === undefined ? fatal.signal : AbortSignal.any([options.signal, fatal.signal]);

  let result: ModelLoopResult;
  try {
    result = await runModelLoop(
      {
        model: options.model.model,
        system: context.systemPrompts[mode],
        messages: [...(options.history ?? []), { role: 'user', content: options.prompt }],
        tools,
        stopWhen,
        ...options.model.callSettings,
        abortSignal: signal,
        ...(options.onStep === undefined
          ? {}
          : { onStepFinish: async (step: StepResult<ToolSet>) => options.onStep?.(toAgentStep(step)) }),
      },
      options.onTextDelta,
    );
  } catch (error) {
    throwIfAborted(fatal.signal, options.signal);
    throw options.model.explainError?.(error) ?? error;
  }
  // The last step's tools may have been cut short by an abort that generateText, having
  // met a stop condition, did not notice.
  throwIfAborted(fatal.signal, options.signal);

  const steps = result.steps.map(toAgentStep);
  const lastStep = steps[steps.length - 1];
  const clarification = findClarification(lastStep);
  const stepLimitReached = clarification === null && lastStep !== undefined && wantedMoreTools(lastStep);
  const usage = usageFromSteps(result.steps);
  return {
    text: result.text,
    responseMessages: result.responseMessages,
    steps,
    toolCalls: steps.flatMap((step) => step.toolCalls),
    usage,
    cost: costOf(usage, options.model.prices),
    finishReason:
      clarification !== null
        ? 'clarification'
        : stepLimitReached
          ? 'step-limit'
          : (lastStep?.finishReason ?? 'other'),
    stepLimitReached,
    clarification,
    durationMs: now() - started,
    queryResults,
  };
}

interface ModelLoopResult {
  steps: StepResult<ToolSet>[];
  text: string;
  responseMessages: ResponseMessage[];
}

/** The tool loop, waiting per step, or streaming the answer text when someone listens for it. */
async function runModelLoop(
  params: Parameters<typeof generateText<ToolSet>>[0],
  onTextDelta: ((delta: string) => void) | undefined,
): Promise<ModelLoopResult> {
  if (onTextDelta === undefined) {
    const result = await generateText(params);
    return { steps: result.steps, text: result.text, responseMessages: result.response.messages };
  }
  const stream = streamText({ ...params, onError: () => undefined });
  for await (const part of stream.fullStream) {
    if (part.type === 'text-delta') onTextDelta(part.text);
    // streamText reports failures in the stream; the caller expects them thrown, as generateText does.
    else if (part.type === 'error') throw part.error;
    else if (part.type === 'abort') params.abortSignal?.throwIfAborted();
  }
  const [steps, text, response] = await Promise.all([stream.steps, stream.text, stream.response]);
  return { steps, text, responseMessages: response.messages };
}

function throwIfAborted(fatal: AbortSignal, caller: AbortSignal | undefined): void {
  if (fatal.aborted) throw fatal.reason;
  if (caller?.aborted) throw caller.reason;
}

function toAgentStep(step: StepResult<ToolSet>): AgentStep {
  const results = new Map<string, unknown>();
  for (const part of step.content) {
    if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
    if (part.type === 'tool-error') results.set(part.toolCallId, { error: messageOf(part.error) });
  }
  const toolCalls: AgentToolCall[] = [];
  for (const part of step.content) {
    if (part.type !== 'tool-call') continue;
    toolCalls.push({
      toolName: part.toolName,
      toolCallId: part.toolCallId,
      args: part.input,
      result: results.has(part.toolCallId) ? results.get(part.toolCallId) : null,
    });
  }
  return {
    stepNumber: step.stepNumber,
    text: step.text,
    toolCalls,
    finishReason: step.finishReason,
    usage: usageFromSdk(step.usage),
  };
}

/** The SDK loops on as long as every tool call of a step got a result; only a stop condition ends that. */
function wantedMoreTools(step: AgentStep): boolean {
  return step.toolCalls.length > 0 && step.toolCalls.every((call) => call.result !== null);
}

function findClarification(step: AgentStep | undefined): Clarification | null {
  const call = step?.toolCalls.find((candidate) => candidate.toolName === CLARIFICATION_TOOL_NAME);
  const output = call?.result as Partial<ClarificationOutput> | null | undefined;
  if (output?.status !== 'asked' || typeof output.question !== 'string') return null;
  return { question: output.question, options: output.options ?? [] };
}
