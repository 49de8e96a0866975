/**
 * What the model sees of one provider request — model id, system prompt, messages, tools with
 * their schemas, response format — reduced to hashes. Transport details (headers, keys, base
 * URL, stream flags, store/metadata fields) are left out, and so is the row order of query
 * results (see unordered-rows.ts), so a recording survives changes that do not alter the
 * model's input, and a stale one can say which part changed.
 */
import { sha256Of } from './canonical-json.js';
import { withUnorderedRows } from './unordered-rows.js';

export interface MessageSummary {
  /** `user`, `assistant`, `tool` (a tool result), or the provider's own role/type otherwise. */
  role: string;
  /** First 16 hex characters of the SHA-256 of the message's canonical JSON. */
  hash: string;
  /** For a tool result: the tool it answers, when the conversation says. */
  tool?: string;
  /** For an assistant message: the tools it called, in order. */
  tool_calls?: string[];
}

export interface RequestSummary {
  /** The model id as sent (from the body, or from the URL for Gemini). */
  model: string | null;
  /** Short hash of the system prompt / instructions; null when there is none. */
  system: string | null;
  messages: MessageSummary[];
  /** Names of the declared tools, and a short hash of their definitions and the tool choice. */
  tools: { names: string[]; hash: string } | null;
  /** Short hash of the structured-output format; null when the reply is free text. */
  response_format: string | null;
}

export interface SummarizedRequest {
  /** Full SHA-256 over every part the summary describes: equal hashes replay. */
  hash: string;
  summary: RequestSummary;
}

type Json = Record<string, unknown>;

const SHORT_HASH_CHARS = 16;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shortHash(value: unknown): string {
  return sha256Of(value).slice(0, SHORT_HASH_CHARS);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Gemini names the model in the URL (`/models/gemini-2.5-pro:generateContent`), not the body. */
function modelFromPath(path: string): string | null {
  const match = /\/models\/([^/:?]+)/.exec(path);
  return match?.[1] === undefined ? null : decodeURIComponent(match[1]);
}

const SYSTEM_ROLES = new Set(['system', 'developer']);

interface Parts {
  model: string | null;
  system: unknown[];
  messages: unknown[];
  tools: Json | null;
  responseFormat: Json | null;
}

/** Everything but the transport fields, for bodies of an unknown shape: hashed as one message. */
const TRANSPORT_KEYS = new Set([
  'stream',
  'stream_options',
  'store',
  'user',
  'metadata',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
]);

function partsOf(body: unknown, path: string): Parts {
  if (!isObject(body)) {
    return { model: modelFromPath(path), system: [], messages: [body], tools: null, responseFormat: null };
  }
  const system: unknown[] = [];
  // Anthropic `system`, OpenAI Responses `instructions`, Gemini `systemInstruction`.
  for (const key of ['system', 'instructions', 'systemInstruction']) {
    if (body[key] !== undefined && body[key] !== null) system.push(body[key]);
  }
  const list = body.messages ?? body.input ?? body.contents;
  let messages: unknown[];
  if (Array.isArray(list)) {
    messages = [];
    for (const item of list) {
      if (isObject(item) && typeof item.role === 'string' && SYSTEM_ROLES.has(item.role)) system.push(item);
      else messages.push(item);
    }
  } else if (typeof list === 'string') {
    messages = [{ role: 'user', content: list }];
  } else {
    const rest: Json = {};
    for (const [key, value] of Object.entries(body)) {
      if (!TRANSPORT_KEYS.has(key) && key !== 'model' && !['system', 'instructions'].includes(key))
        rest[key] = value;
    }
    messages = [{ role: 'request', body: rest }];
  }

  const tools: Json = {};
  for (const key of ['tools', 'tool_choice', 'toolConfig']) {
    if (body[key] !== undefined) tools[key] = body[key];
  }
  const format: Json = {};
  if (body.response_format !== undefined) format.response_format = body.response_format;
  if (isObject(body.text) && body.text.format !== undefined) format.text_format = body.text.format;
  if (body.output_format !== undefined) format.output_format = body.output_format;
  if (isObject(body.generationConfig)) {
    for (const key of ['responseMimeType', 'responseSchema', 'responseJsonSchema']) {
      if (body.generationConfig[key] !== undefined) format[key] = body.generationConfig[key];
    }
  }
  return {
    model: text(body.model) ?? modelFromPath(path),
    system,
    messages: messages.map(withUnorderedRows),
    tools: Object.keys(tools).length === 0 ? null : tools,
    responseFormat: Object.keys(format).length === 0 ? null : format,
  };
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    const fn = isObject(tool.function) ? tool.function : undefined;
    const declared = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : undefined;
    if (declared !== undefined) {
      for (const item of declared) if (isObject(item) && text(item.name)) names.push(item.name as string);
    } else {
      const name = text(tool.name) ?? text(fn?.name) ?? text(tool.type);
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

/** Role, tool names and hash of each message, across the OpenAI, Anthropic and Gemini shapes. */
function summarizeMessages(messages: readonly unknown[]): MessageSummary[] {
  const toolByCallId = new Map<string, string>();
  return messages.map((message) => {
    const hash = shortHash(message);
    if (!isObject(message)) return { role: 'unknown', hash };
    const calls: string[] = [];
    const remember = (id: unknown, name: unknown) => {
      if (typeof name !== 'string') return;
      calls.push(name);
      if (typeof id === 'string') toolByCallId.set(id, name);
    };
    const blocks = Array.isArray(message.content)
      ? message.content
      : Array.isArray(message.parts)
        ? message.parts
        : [];

    // OpenAI Responses items.
    if (message.type === 'function_call' || message.type === 'custom_tool_call') {
      remember(message.call_id, message.name);
      return { role: 'assistant', hash, tool_calls: calls };
    }
    if (message.type === 'function_call_output' || message.type === 'custom_tool_call_output') {
      return withTool({ role: 'tool', hash }, toolByCallId.get(String(message.call_id)));
    }
    if (message.type === 'item_reference' || message.type === 'reasoning') return { role: 'assistant', hash };

    // OpenAI Chat.
    if (message.role === 'tool') {
      return withTool({ role: 'tool', hash }, toolByCallId.get(String(message.tool_call_id)));
    }
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (isObject(call)) remember(call.id, isObject(call.function) ? call.function.name : call.name);
      }
    }
    // Anthropic blocks and Gemini parts.
    const results: (string | undefined)[] = [];
    let onlyResults = blocks.length > 0;
    for (const block of blocks) {
      if (!isObject(block)) {
        onlyResults = false;
        continue;
      }
      if (block.type === 'tool_use') remember(block.id, block.name);
      else if (isObject(block.functionCall)) remember(undefined, block.functionCall.name);
      if (block.type === 'tool_result') results.push(toolByCallId.get(String(block.tool_use_id)));
      else if (isObject(block.functionResponse)) results.push(text(block.functionResponse.name));
      else onlyResults = false;
    }
    if (onlyResults && results.length > 0) {
      const names = [...new Set(results.filter((name): name is string => name !== undefined))];
      return withTool({ role: 'tool', hash }, names.length === 0 ? undefined : names.join(', '));
    }

    const role =
      message.role === 'model' ? 'assistant' : (text(message.role) ?? text(message.type) ?? 'unknown');
    return calls.length > 0 ? { role, hash, tool_calls: calls } : { role, hash };
  });
}

function withTool(summary: MessageSummary, tool: string | undefined): MessageSummary {
  return tool === undefined ? summary : { ...summary, tool };
}

/** Hash and summary of a provider request body (JSON text; anything else is hashed as is). */
export function summarizeRequest(options: { body: string; path: string }): SummarizedRequest {
  let body: unknown;
  try {
    body = JSON.parse(options.body);
  } catch {
    body = options.body;
  }
  const parts = partsOf(body, options.path);
  const hash = sha256Of({
    model: parts.model,
    system: parts.system,
    messages: parts.messages,
    tools: parts.tools,
    response_format: parts.responseFormat,
  });
  return {
    hash,
    summary: {
      model: parts.model,
      system: parts.system.length === 0 ? null : shortHash(parts.system),
      messages: summarizeMessages(parts.messages),
      tools:
        parts.tools === null ? null : { names: toolNames(parts.tools.tools), hash: shortHash(parts.tools) },
      response_format: parts.responseFormat === null ? null : shortHash(parts.responseFormat),
    },
  };
}

/**
 * What differs between a recorded request and the one made now, in a few words each
 * ("the prompt differs", "the execute_sql result of step 2 differs"); the first differing
 * message only, since everything after it follows from it.
 */
export function describeChanges(recorded: RequestSummary, current: RequestSummary): string[] {
  const changes: string[] = [];
  if (recorded.model !== current.model) {
    changes.push(`the model id differs (recorded ${quote(recorded.model)}, now ${quote(current.model)})`);
  }
  if (recorded.system !== current.system) {
    changes.push(
      recorded.system === null || current.system === null
        ? `the system prompt ${current.system === null ? 'is gone' : 'is new'}`
        : 'the system prompt differs (RULES.md, the database schema, the context files or nao changed)',
    );
  }
  if (recorded.tools?.hash !== current.tools?.hash) {
    const before = recorded.tools?.names.join(', ') ?? '';
    const now = current.tools?.names.join(', ') ?? '';
    changes.push(
      before === now
        ? 'the tool definitions differ'
        : `the tools differ (recorded: ${before || 'none'}; now: ${now || 'none'})`,
    );
  }
  if (recorded.response_format !== current.response_format) changes.push('the response format differs');
  const message = messageChange(recorded.messages, current.messages);
  if (message !== null) changes.push(message);
  return changes;
}

function messageChange(
  recorded: readonly MessageSummary[],
  current: readonly MessageSummary[],
): string | null {
  const shared = Math.min(recorded.length, current.length);
  for (let index = 0; index < shared; index++) {
    const before = recorded[index]!;
    const now = current[index]!;
    if (before.role !== now.role) {
      return `message ${index + 1} changed kind (recorded: ${before.role}, now: ${now.role})`;
    }
    if (before.hash === now.hash) continue;
    const turn = assistantTurns(current, index);
    switch (now.role) {
      case 'tool':
        return turn === 0
          ? `the tool result in message ${index + 1} differs`
          : `the ${now.tool ?? 'tool'} result of step ${turn} differs`;
      case 'user':
        return current.slice(0, index).some((message) => message.role === 'user')
          ? `message ${index + 1} (user) differs`
          : 'the prompt differs';
      case 'assistant':
        return `the model's reply of step ${turn + (current[index - 1]?.role === 'assistant' ? 0 : 1)}, as sent back, differs`;
      default:
        return `message ${index + 1} (${now.role}) differs`;
    }
  }
  if (recorded.length !== current.length) {
    return `the conversation has ${current.length} message(s), the recording ${recorded.length}`;
  }
  return null;
}

/** Model replies before `index`: consecutive assistant items (text + calls) are one reply. */
function assistantTurns(messages: readonly MessageSummary[], index: number): number {
  let turns = 0;
  for (let i = 0; i < index; i++) {
    if (messages[i]?.role === 'assistant' && messages[i - 1]?.role !== 'assistant') turns++;
  }
  return turns;
}

function quote(value: string | null): string {
  return value === null ? 'none' : `"${value}"`;
}
