/**
 * The judge model call of a test with `expected_answer:`: one structured-output call that
 * grades the agent's final text against the expected answer with a fixed rubric. It runs
 * where the agent runs (it needs the provider keys); the verdict is then read by judgeRun.
 */
import { generateText, jsonSchema, type ModelMessage, NoObjectGeneratedError, Output } from 'ai';
import { z } from 'zod';
import { messageOf } from '../errors/index.js';
import type { PricedModel } from '../llm/priced-model.js';
import {
  addUsage,
  type Cost,
  costOf,
  EMPTY_USAGE,
  type TokenUsage,
  usageFromSdk,
  usageFromSteps,
} from '../llm/usage.js';
import { JUDGE_OUTPUT_NAME, JUDGE_REPAIR_REQUEST, JUDGE_RUBRIC, judgeRequest } from './judge-prompt.js';

export type JudgeVerdict = 'pass' | 'fail';

/** What the judge said, with what it cost; carried in the run's response next to the extraction's. */
export interface AnswerJudgement {
  /** `provider:model_id` of the judge. */
  model: string;
  /** null when no reply could be read as `{verdict, reason}` (then `error` says so). */
  verdict: JudgeVerdict | null;
  /** The judge's reason; empty without a verdict. */
  reason: string;
  /** Why there is no verdict (the call failed, the reply was unreadable): the run cannot be judged. */
  error: string | null;
  /** Model calls made: 1, or 2 after an unreadable reply. */
  attempts: number;
  /** The judge's usage only; the agent's and the extraction's are reported apart. */
  usage: TokenUsage;
  cost: Cost | null;
}

export const MAX_JUDGE_ATTEMPTS = 2;

/** What `validate` accepts of a reply: the two fields, the reason trimmed. */
const judgeReply = z.object({
  verdict: z.enum(['pass', 'fail']),
  reason: z.string().transform((reason) => reason.trim()),
});
type JudgeReply = z.infer<typeof judgeReply>;

/**
 * The reply's schema, written out as providers receive it (a generated one would change its
 * spelling with zod's version and make every recorded judge call stale).
 */
const judgeSchema = jsonSchema<JudgeReply>(
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      verdict: {
        description: '"pass" when the answer is correct according to the expected answer, else "fail".',
        type: 'string',
        enum: ['pass', 'fail'],
      },
      reason: {
        description: 'One or two sentences: what matched, or what was missing or wrong.',
        type: 'string',
      },
    },
    required: ['verdict', 'reason'],
    additionalProperties: false,
  },
  {
    validate: (value) => {
      const reply = judgeReply.safeParse(value);
      return reply.success
        ? { success: true, value: reply.data }
        : {
            success: false,
            error: new TypeError('Expected {"verdict": "pass" | "fail", "reason": string}.'),
          };
    },
  },
);

/**
 * Grades `answer`. A failed call or an unreadable reply is data (no verdict, with the reason),
 * so the run keeps the agent's answer in its results; only an abort rejects.
 */
export async function judgeAnswer(options: {
  /** The judge model, resolved and priced like the model under test. */
  model: PricedModel;
  question: string;
  expectedAnswer: string;
  /** The agent's final answer text. */
  answer: string;
  signal?: AbortSignal;
}): Promise<AnswerJudgement> {
  const { model, signal } = options;
  const messages: ModelMessage[] = [{ role: 'user', content: judgeRequest(options) }];
  let usage: TokenUsage = { ...EMPTY_USAGE };
  const judgement = (
    found: Pick<AnswerJudgement, 'verdict' | 'reason' | 'error' | 'attempts'>,
  ): AnswerJudgement => ({ model: model.id, ...found, usage, cost: costOf(usage, model.prices) });
  const noVerdict = (error: string, attempts: number) =>
    judgement({ verdict: null, reason: '', error, attempts });
  for (let attempt = 1; attempt <= MAX_JUDGE_ATTEMPTS; attempt++) {
    let reply: JudgeReply;
    try {
      const result = await generateText({
        model: model.model,
        system: JUDGE_RUBRIC,
        messages: [...messages],
        output: Output.object({ schema: judgeSchema, name: JUDGE_OUTPUT_NAME }),
        ...model.callSettings,
        abortSignal: signal,
      });
      usage = addUsage(usage, usageFromSteps(result.steps));
      reply = result.output;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!NoObjectGeneratedError.isInstance(error)) {
        const explained = model.explainError?.(error) ?? error;
        return noVerdict(`its call failed (attempt ${attempt}): ${messageOf(explained)}`, attempt);
      }
      usage = addUsage(usage, usageFromSdk(error.usage));
      messages.push({ role: 'assistant', content: error.text || '(empty reply)' });
      messages.push({ role: 'user', content: JUDGE_REPAIR_REQUEST });
      continue;
    }
    return judgement({
      verdict: reply.verdict,
      reason: reply.reason === '' ? `(the judge gave no reason for "${reply.verdict}")` : reply.reason,
      error: null,
      attempts: attempt,
    });
  }
  return noVerdict(
    `its reply was not {"verdict", "reason"} after ${MAX_JUDGE_ATTEMPTS} attempts`,
    MAX_JUDGE_ATTEMPTS,
  );
}
