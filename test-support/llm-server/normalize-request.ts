import type { NormalizedMessage, NormalizedTool, Protocol } from './types.js';

/** A request body read into protocol-neutral terms. */
export interface NormalizedRequest {
  model: string;
  messages: NormalizedMessage[];
  tools: NormalizedTool[];
  stream: boolean;
  wantsJson: boolean;
  /** The tool the request forces the model to call, if any (Anthropic's JSON-tool structured output). */
  forcedTool: string | null;
}

/** Items the server sent earlier, so `item_reference`s of the Responses API can be resolved. */
export type ResponsesItemStore = Map<string, ResponsesStoredItem>;

export type ResponsesStoredItem =
  | { type: 'message'; text: string }
  | { type: 'function_call'; callId: string; name: string; arguments: string };

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Joins the text of a content value that is a string or a list of typed parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (isRecord(part) && typeof part.text === 'string') return part.text;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function parseArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function roleOf(value: unknown): NormalizedMessage['role'] {
  if (value === 'system' || value === 'developer') return 'system';
  if (value === 'assistant') return 'assistant';
  if (value === 'tool') return 'tool';
  return 'user';
}

/** Fills in `toolName` of tool messages from the assistant calls they answer. */
function linkToolNames(messages: NormalizedMessage[]): NormalizedMessage[] {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
    if (message.role === 'tool' && message.toolName === undefined && message.toolCallId !== undefined) {
      const name = names.get(message.toolCallId);
      if (name !== undefined) message.toolName = name;
    }
  }
  return messages;
}

/** The tool a "call some tool" choice leaves: the only one, or the SDK's `json` tool. */
function onlyOrJsonTool(tools: NormalizedTool[]): string | null {
  if (tools.length === 1) return tools[0]?.name ?? null;
  return tools.some((tool) => tool.name === 'json') ? 'json' : null;
}

function openaiChat(body: Json): NormalizedRequest {
  const messages: NormalizedMessage[] = [];
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(raw)) continue;
    const role = roleOf(raw.role);
    const message: NormalizedMessage = { role, content: textOf(raw.content) };
    if (role === 'assistant' && Array.isArray(raw.tool_calls)) {
      message.toolCalls = raw.tool_calls.filter(isRecord).map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        return { id: asString(call.id), name: asString(fn.name), args: parseArgs(fn.arguments) };
      });
    }
    if (role === 'tool') message.toolCallId = asString(raw.tool_call_id);
    messages.push(message);
  }
  const tools: NormalizedTool[] = (Array.isArray(body.tools) ? body.tools : [])
    .filter(isRecord)
    .map((tool) => {
      const fn = isRecord(tool.function) ? tool.function : tool;
      return {
        name: asString(fn.name),
        description: fn.description as string | undefined,
        parameters: fn.parameters,
      };
    });
  const format = isRecord(body.response_format) ? body.response_format.type : undefined;
  const choice = body.tool_choice;
  const forcedTool =
    isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string'
      ? choice.function.name
      : choice === 'required'
        ? onlyOrJsonTool(tools)
        : null;
  return {
    model: asString(body.model),
    messages: linkToolNames(messages),
    tools,
    stream: body.stream === true,
    wantsJson: format === 'json_schema' || format === 'json_object',
    forcedTool,
  };
}

function openaiResponses(body: Json, store: ResponsesItemStore): NormalizedRequest {
  const messages: NormalizedMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  const pushCall = (call: { id: string; name: string; args: unknown }) => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') {
      last.toolCalls = [...(last.toolCalls ?? []), call];
    } else {
      messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    }
  };
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  for (const raw of Array.isArray(input) ? input : []) {
    if (!isRecord(raw)) continue;
    let item: Json = raw;
    if (raw.type === 'item_reference') {
      const stored = store.get(asString(raw.id));
      if (stored === undefined) continue;
      item =
        stored.type === 'message'
          ? { role: 'assistant', content: stored.text }
          : { type: 'function_call', call_id: stored.callId, name: stored.name, arguments: stored.arguments };
    }
    if (item.type === 'function_call') {
      pushCall({ id: asString(item.call_id), name: asString(item.name), args: parseArgs(item.arguments) });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', content: textOf(item.output), toolCallId: asString(item.call_id) });
    } else if (item.role !== undefined) {
      messages.push({ role: roleOf(item.role), content: textOf(item.content) });
    }
  }
  const tools: NormalizedTool[] = (Array.isArray(body.tools) ? body.tools : [])
    .filter(isRecord)
    .filter((tool) => tool.type === 'function')
    .map((tool) => ({
      name: asString(tool.name),
      description: tool.description as string | undefined,
      parameters: tool.parameters,
    }));
  const text = isRecord(body.text) ? body.text : {};
  const format = isRecord(text.format) ? text.format.type : undefined;
  const choice = body.tool_choice;
  return {
    model: asString(body.model),
    messages: linkToolNames(messages),
    tools,
    stream: body.stream === true,
    wantsJson: format === 'json_schema' || format === 'json_object',
    forcedTool:
      isRecord(choice) && typeof choice.name === 'string'
        ? choice.name
        : choice === 'required'
          ? onlyOrJsonTool(tools)
          : null,
  };
}

function anthropicMessages(body: Json): NormalizedRequest {
  const messages: NormalizedMessage[] = [];
  const system = textOf(body.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(raw)) continue;
    const role = raw.role === 'assistant' ? 'assistant' : 'user';
    if (typeof raw.content === 'string') {
      messages.push({ role, content: raw.content });
      continue;
    }
    const blocks = (Array.isArray(raw.content) ? raw.content : []).filter(isRecord);
    const texts: string[] = [];
    const calls: NonNullable<NormalizedMessage['toolCalls']> = [];
    for (const block of blocks) {
      if (block.type === 'text') texts.push(asString(block.text));
      else if (block.type === 'tool_use') {
        calls.push({ id: asString(block.id), name: asString(block.name), args: block.input ?? {} });
      } else if (block.type === 'tool_result') {
        messages.push({
          role: 'tool',
          content: textOf(block.content),
          toolCallId: asString(block.tool_use_id),
        });
      }
    }
    if (texts.length > 0 || calls.length > 0) {
      const message: NormalizedMessage = { role, content: texts.join('\n') };
      if (calls.length > 0) message.toolCalls = calls;
      messages.push(message);
    }
  }
  const tools: NormalizedTool[] = (Array.isArray(body.tools) ? body.tools : [])
    .filter(isRecord)
    .map((tool) => ({
      name: asString(tool.name),
      description: tool.description as string | undefined,
      parameters: tool.input_schema,
    }));
  const outputConfig = isRecord(body.output_config) ? body.output_config : {};
  const outputFormat = isRecord(outputConfig.format)
    ? outputConfig.format
    : isRecord(body.output_format)
      ? body.output_format
      : {};
  const choice = isRecord(body.tool_choice) ? body.tool_choice : {};
  const forcedTool =
    choice.type === 'tool' ? asString(choice.name) : choice.type === 'any' ? onlyOrJsonTool(tools) : null;
  return {
    model: asString(body.model),
    messages: linkToolNames(messages),
    tools,
    stream: body.stream === true,
    // The SDK's JSON-tool mode: a single `json` tool the model must call.
    wantsJson: outputFormat.type === 'json_schema' || forcedTool === 'json',
    forcedTool,
  };
}

/** Reads a request body of the given protocol. */
export function normalizeRequest(options: {
  protocol: Protocol;
  body: Json;
  store: ResponsesItemStore;
}): NormalizedRequest {
  switch (options.protocol) {
    case 'openai-chat':
      return openaiChat(options.body);
    case 'openai-responses':
      return openaiResponses(options.body, options.store);
    case 'anthropic-messages':
      return anthropicMessages(options.body);
  }
}
