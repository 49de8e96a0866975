/**
 * The JSON the chat API sends the chat page (web/chat/), as types only: the page imports them
 * from here and never a server module, so nothing of the server reaches its bundle.
 */

/** A tool call as the chat page shows it: what the agent asked and what it got back. */
export interface ChatToolCall {
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
}

/** What the page shows of one message; the model messages behind it are kept apart. */
export type ChatMessageDisplay =
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      model: string;
      text: string;
      toolCalls: ChatToolCall[];
      clarification: { question: string; options: string[] } | null;
      /** Why the run failed, shown in place of (or after) the partial answer. */
      error: string | null;
      /** The user pressed stop before the answer was complete. */
      stopped: boolean;
    };

export type ChatMessage = ChatMessageDisplay & { id: string; createdAt: string };

export interface Conversation {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** One line of the NDJSON stream `POST /api/chat/conversations/:id/messages` answers with. */
export type ChatEvent =
  | { type: 'user-message'; message: ChatMessage }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCall: Omit<ChatToolCall, 'result'> }
  | { type: 'tool-result'; toolCallId: string; result: unknown }
  | { type: 'clarification'; question: string; options: string[] }
  | { type: 'error'; error: string }
  | { type: 'done'; message: ChatMessage };
