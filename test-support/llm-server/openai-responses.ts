import type { ResponsesItemStore } from './normalize-request.js';
import {
  CREATED_AT,
  deltas,
  type RenderedBody,
  type ReplyContent,
  type ReplyContext,
  sseEvent,
} from './reply.js';

/** OpenAI Responses (`POST /v1/responses`). */

export function responsesToolCallId(context: ReplyContext, position: number): string {
  return `call_${context.index}_${position}`;
}

function responsesUsage(content: ReplyContent) {
  const { usage } = content;
  return {
    input_tokens: usage.input,
    input_tokens_details: {
      cached_tokens: usage.cachedInput,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
}

export function renderOpenaiResponses(options: {
  content: ReplyContent;
  context: ReplyContext;
  stream: boolean;
  store: ResponsesItemStore;
}): RenderedBody {
  const { content, context, store } = options;
  const messageId = `msg_${context.index}`;
  const messageItem =
    content.text === null
      ? null
      : {
          type: 'message',
          id: messageId,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: content.text, annotations: [], logprobs: [] }],
        };
  const callItems = content.toolCalls.map((call, position) => ({
    type: 'function_call',
    id: `fc_${context.index}_${position}`,
    call_id: call.id,
    name: call.name,
    arguments: call.argsJson,
    status: 'completed',
  }));
  if (content.text !== null) store.set(messageId, { type: 'message', text: content.text });
  for (const item of callItems) {
    store.set(item.id, {
      type: 'function_call',
      callId: item.call_id,
      name: item.name,
      arguments: item.arguments,
    });
  }
  const output = [...(messageItem === null ? [] : [messageItem]), ...callItems];
  const incomplete = content.finishReason !== undefined && content.finishReason !== 'completed';
  const response = {
    id: `resp_${context.index}`,
    object: 'response',
    created_at: CREATED_AT,
    status: incomplete ? 'incomplete' : 'completed',
    model: context.model,
    output,
    incomplete_details: incomplete ? { reason: content.finishReason } : null,
    error: null,
    usage: responsesUsage(content),
  };
  if (!options.stream) {
    return { contentType: 'application/json', chunks: [JSON.stringify(response)] };
  }

  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    sseEvent({ type, sequence_number: sequence++, ...data }, type);
  const chunks = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
    event('response.in_progress', {
      response: { ...response, status: 'in_progress', output: [], usage: null },
    }),
  ];
  let outputIndex = 0;
  if (messageItem !== null && content.text !== null) {
    const index = outputIndex++;
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    chunks.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...messageItem, status: 'in_progress', content: [] },
      }),
      event('response.content_part.added', {
        item_id: messageId,
        output_index: index,
        content_index: 0,
        part,
      }),
    );
    for (const delta of deltas(content.text)) {
      chunks.push(
        event('response.output_text.delta', {
          item_id: messageId,
          output_index: index,
          content_index: 0,
          delta,
          logprobs: [],
        }),
      );
    }
    chunks.push(
      event('response.output_text.done', {
        item_id: messageId,
        output_index: index,
        content_index: 0,
        text: content.text,
        logprobs: [],
      }),
      event('response.content_part.done', {
        item_id: messageId,
        output_index: index,
        content_index: 0,
        part: { ...part, text: content.text },
      }),
      event('response.output_item.done', { output_index: index, item: messageItem }),
    );
  }
  for (const item of callItems) {
    const index = outputIndex++;
    chunks.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      }),
    );
    for (const delta of deltas(item.arguments)) {
      chunks.push(
        event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta }),
      );
    }
    chunks.push(
      event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        arguments: item.arguments,
      }),
      event('response.output_item.done', { output_index: index, item }),
    );
  }
  chunks.push(event(incomplete ? 'response.incomplete' : 'response.completed', { response }));
  return { contentType: 'text/event-stream', chunks };
}
