/** The wire protocols the test server speaks. */
export type Protocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

/** Token counts of one scripted reply, in protocol-neutral terms. */
export interface TurnUsage {
  /** Every input token, cached ones included (OpenAI's `prompt_tokens` sense). */
  input?: number;
  /** Every output token, reasoning included. */
  output?: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInput?: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWrite?: number;
  /** Output tokens spent on reasoning. */
  reasoning?: number;
}

export interface TurnToolCall {
  name: string;
  args: unknown;
  /** Defaults to a deterministic id derived from the request index and position. */
  id?: string;
}

/**
 * One scripted model reply. Without `status`, `hang` or `errorBody` it is a successful
 * completion holding `text`, then `json` (as text), then `toolCalls`.
 */
export interface Turn {
  text?: string;
  toolCalls?: TurnToolCall[];
  /** Structured output: sent as the JSON text of the reply (or as the forced tool's input when the request forces one). */
  json?: unknown;
  usage?: TurnUsage;
  /** Answers this long after the request arrived (a slow provider). */
  delayMs?: number;
  /** An HTTP status; >= 400 sends an error response with `errorBody` (or the protocol's error shape). */
  status?: number;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** The error body to send with an error `status`: a string is sent verbatim, anything else as JSON. */
  errorBody?: unknown;
  /**
   * `true`: accept the request and never answer (a hung provider).
   * `'mid-body'`: send the status, headers and the first half of the body, then go silent.
   */
  hang?: boolean | 'mid-body';
  /** Finish reason override in the protocol's own vocabulary (e.g. `length`, `max_tokens`). */
  finishReason?: string;
}

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** A conversation message with the protocol differences removed. */
export interface NormalizedMessage {
  role: MessageRole;
  /** Text content; for a tool message, the tool result as the client sent it (JSON text when structured). */
  content: string;
  /** Tool calls made by an assistant message. */
  toolCalls?: { id: string; name: string; args: unknown }[];
  /** For a tool message: the call it answers and that call's tool name (when known). */
  toolCallId?: string;
  toolName?: string;
}

export interface NormalizedTool {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** What a script function sees of one request. */
export interface ScriptRequest {
  protocol: Protocol;
  model: string;
  messages: NormalizedMessage[];
  tools: NormalizedTool[];
  /** The parsed JSON body as the client sent it. */
  body: Record<string, unknown>;
  /** 0-based arrival order over the server's lifetime. */
  index: number;
  stream: boolean;
  /** True when the request asks for structured (JSON) output. */
  wantsJson: boolean;
  /** Lower-cased header names, as received (auth headers included: this is a test tool). */
  headers: Record<string, string>;
}

export type ScriptFunction = (request: ScriptRequest) => Turn | Promise<Turn>;

/** A list of turns answered in arrival order, or a function choosing the turn per request. */
export type Script = Turn[] | ScriptFunction;

export interface RecordedRequest extends ScriptRequest {
  method: string;
  path: string;
}
