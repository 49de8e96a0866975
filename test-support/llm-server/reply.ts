import type { Turn, TurnUsage } from './types.js';

/** The protocol-neutral content of a successful reply, computed once from a turn. */
export interface ReplyContent {
  /** Text of the reply; `null` when the turn has none. */
  text: string | null;
  toolCalls: { id: string; name: string; argsJson: string }[];
  usage: Required<TurnUsage>;
  finishReason: string | undefined;
}

/** What a renderer gets to know about the request it answers. */
export interface ReplyContext {
  index: number;
  model: string;
  forcedTool: string | null;
}

/** A rendered HTTP body: one chunk for JSON replies, one per event for streams. */
export interface RenderedBody {
  contentType: string;
  chunks: string[];
}

const DEFAULT_USAGE: Required<TurnUsage> = {
  input: 10,
  output: 5,
  cachedInput: 0,
  cacheWrite: 0,
  reasoning: 0,
};

/** Thrown for a turn that cannot be rendered; the server answers 500 with the message. */
export class InvalidTurnError extends Error {}

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidTurnError(`usage.${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

/** Resolves the usage of a turn: each missing field takes its default, and the parts must fit in the totals. */
export function usageOf(turn: Turn): Required<TurnUsage> {
  const usage = { ...DEFAULT_USAGE, ...turn.usage };
  for (const key of Object.keys(usage) as (keyof TurnUsage)[]) checkCount(key, usage[key]);
  if (usage.cachedInput + usage.cacheWrite > usage.input) {
    throw new InvalidTurnError(
      `usage.cachedInput + usage.cacheWrite (${usage.cachedInput + usage.cacheWrite}) exceed usage.input (${usage.input}); input counts every input token`,
    );
  }
  if (usage.reasoning > usage.output) {
    throw new InvalidTurnError(
      `usage.reasoning (${usage.reasoning}) exceeds usage.output (${usage.output}); output counts every output token`,
    );
  }
  return usage;
}

/**
 * Builds the reply content. `json` takes the place of `text`, except when the request forces
 * a tool: then the JSON becomes that tool's input, which is how the SDK's JSON-tool mode reads it.
 */
export function replyContent(options: {
  turn: Turn;
  context: ReplyContext;
  toolCallId: (position: number) => string;
}): ReplyContent {
  const { turn, context } = options;
  const toolCalls = (turn.toolCalls ?? []).map((call, position) => {
    if (typeof call.name !== 'string' || call.name === '') {
      throw new InvalidTurnError(`toolCalls[${position}].name must be a non-empty string`);
    }
    return {
      id: call.id ?? options.toolCallId(position),
      name: call.name,
      argsJson: JSON.stringify(call.args ?? {}),
    };
  });
  let text = turn.text ?? null;
  if (turn.json !== undefined) {
    if (context.forcedTool !== null) {
      toolCalls.push({
        id: options.toolCallId(toolCalls.length),
        name: context.forcedTool,
        argsJson: JSON.stringify(turn.json),
      });
    } else {
      text = JSON.stringify(turn.json);
    }
  }
  return { text, toolCalls, usage: usageOf(turn), finishReason: turn.finishReason };
}

/** Formats one server-sent event. */
export function sseEvent(data: unknown, event?: string): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${json}\n\n`;
}

/** Splits a text in a few deltas so streaming clients see more than one chunk. */
export function deltas(text: string): string[] {
  // By code point, so no delta ends inside a surrogate pair.
  const points = Array.from(text);
  if (points.length <= 1) return [text];
  const size = Math.ceil(points.length / 3);
  const parts: string[] = [];
  for (let start = 0; start < points.length; start += size)
    parts.push(points.slice(start, start + size).join(''));
  return parts;
}

export const CREATED_AT = 1_750_000_000;
