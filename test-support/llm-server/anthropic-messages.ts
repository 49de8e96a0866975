import { deltas, type RenderedBody, type ReplyContent, type ReplyContext, sseEvent } from './reply.js';

/** Anthropic Messages (`POST /v1/messages`). */

export function anthropicToolCallId(context: ReplyContext, position: number): string {
  return `toolu_${context.index}_${position}`;
}

/** Anthropic's `input_tokens` leaves out cached tokens, which have their own fields. */
function inputUsage(content: ReplyContent) {
  const { usage } = content;
  return {
    input_tokens: usage.input - usage.cachedInput - usage.cacheWrite,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cachedInput,
  };
}

function outputUsage(content: ReplyContent) {
  const { usage } = content;
  return {
    output_tokens: usage.output,
    ...(usage.reasoning > 0 ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {}),
  };
}

function stopReason(content: ReplyContent): string {
  return content.finishReason ?? (content.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
}

export function renderAnthropicMessages(options: {
  content: ReplyContent;
  context: ReplyContext;
  stream: boolean;
}): RenderedBody {
  const { content, context } = options;
  const blocks: Record<string, unknown>[] = [];
  if (content.text !== null) blocks.push({ type: 'text', text: content.text });
  for (const call of content.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(call.argsJson) });
  }
  const message = {
    id: `msg_${context.index}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: blocks,
    stop_reason: stopReason(content),
    stop_sequence: null,
    usage: { ...inputUsage(content), ...outputUsage(content) },
  };
  if (!options.stream) {
    return { contentType: 'application/json', chunks: [JSON.stringify(message)] };
  }
  const event = (type: string, data: Record<string, unknown> = {}) => sseEvent({ type, ...data }, type);
  const chunks = [
    event('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...inputUsage(content), output_tokens: 1 },
      },
    }),
    event('ping'),
  ];
  let index = 0;
  if (content.text !== null) {
    chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const text of deltas(content.text)) {
      chunks.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    }
    chunks.push(event('content_block_stop', { index }));
    index++;
  }
  for (const call of content.toolCalls) {
    chunks.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const partial of deltas(call.argsJson)) {
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } }),
      );
    }
    chunks.push(event('content_block_stop', { index }));
    index++;
  }
  chunks.push(
    event('message_delta', {
      delta: { stop_reason: stopReason(content), stop_sequence: null },
      usage: outputUsage(content),
    }),
    event('message_stop'),
  );
  return { contentType: 'text/event-stream', chunks };
}

export function anthropicErrorBody(status: number, message: string) {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status === 401
          ? 'authentication_error'
          : status === 403
            ? 'permission_error'
            : status === 404
              ? 'not_found_error'
              : status >= 500
                ? 'api_error'
                : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
