import { type InferSchema, type Tool, tool, zodSchema } from 'ai';
import { z } from 'zod';

export const CLARIFICATION_TOOL_NAME = 'clarification';

// Converted to JSON Schema once, not by the SDK on every model call.
const inputSchema = zodSchema(
  z.object({
    question: z.string().min(1).describe('The question to ask the user.'),
    options: z.array(z.string()).optional().describe('Suggested answers the user can pick from.'),
  }),
);
type ClarificationInput = InferSchema<typeof inputSchema>;

/** A question the agent asked the user instead of answering; it ends the turn. */
export interface Clarification {
  question: string;
  options: string[];
}

export interface ClarificationOutput extends Clarification {
  status: 'asked';
}

/**
 * The `clarification` tool (chat mode, and tests with `allow_clarification: true`): asks the user a question. It has an `execute`
 * so the conversation keeps a result for the call (providers reject a tool call without
 * one on the next turn); `runAgent` stops the run after the step that called it.
 */
export function createClarificationTool(): Tool<ClarificationInput, ClarificationOutput> {
  return tool({
    description:
      'Ask the user a clarifying question when the request is ambiguous in a way that changes the ' +
      'answer and the data cannot settle it. This ends your turn; the user answers in the next message. ' +
      'Do not use it for things you can look up with the other tools.',
    inputSchema,
    async execute(input): Promise<ClarificationOutput> {
      return { status: 'asked', question: input.question, options: input.options ?? [] };
    },
  });
}
