import {
  CREATED_AT,
  deltas,
  type RenderedBody,
  type ReplyContent,
  type ReplyContext,
  sseEvent,
} from './reply.js';

/** OpenAI Chat Completions (`POST /v1/chat/completions`). */

export function chatToolCallId(context: ReplyContext, position: number): string {
  return `call_${context.index}_${position}`;
}

function chatUsage(content: ReplyContent) {
  const { usage } = content;
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: {
      cached_tokens: usage.cachedInput,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

function finishReason(content: ReplyContent): string {
  return content.finishReason ?? (content.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

export function renderOpenaiChat(options: {
  content: ReplyContent;
  context: ReplyContext;
  stream: boolean;
  includeUsage: boolean;
}): RenderedBody {
  const { content, context } = options;
  const id = `chatcmpl-${context.index}`;
  const base = { id, created: CREATED_AT, model: context.model, system_fingerprint: 'fp_nao_test' };
  if (!options.stream) {
    const message: Record<string, unknown> = { role: 'assistant', content: content.text, refusal: null };
    if (content.toolCalls.length > 0) {
      message.tool_calls = content.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.argsJson },
      }));
    }
    const body = {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(content) }],
      usage: chatUsage(content),
    };
    return { contentType: 'application/json', chunks: [JSON.stringify(body)] };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseEvent({
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const chunks = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const text of content.text === null || content.text === '' ? [] : deltas(content.text)) {
    chunks.push(chunk({ content: text }));
  }
  content.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const args of deltas(call.argsJson)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
    }
  });
  chunks.push(chunk({}, finishReason(content)));
  if (options.includeUsage) {
    chunks.push(
      sseEvent({ ...base, object: 'chat.completion.chunk', choices: [], usage: chatUsage(content) }),
    );
  }
  chunks.push(sseEvent('[DONE]'));
  return { contentType: 'text/event-stream', chunks };
}

export function openaiErrorBody(status: number, message: string) {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status === 401
        ? 'invalid_request_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}
