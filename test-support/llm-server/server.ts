import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicErrorBody, anthropicToolCallId, renderAnthropicMessages } from './anthropic-messages.js';
import { normalizeRequest, type ResponsesItemStore } from './normalize-request.js';
import { chatToolCallId, openaiErrorBody, renderOpenaiChat } from './openai-chat.js';
import { renderOpenaiResponses, responsesToolCallId } from './openai-responses.js';
import { type RenderedBody, type ReplyContext, replyContent } from './reply.js';
import type { Protocol, RecordedRequest, Script, ScriptRequest, Turn } from './types.js';

export interface StartTestLlmServerOptions {
  script: Script;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Told about every request as it arrives, before it is answered. */
  onRequest?: (request: RecordedRequest) => void;
}

export interface TestLlmServer {
  /** Base URL to give a provider, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  port: number;
  /** Every request answered or pending, in arrival order. */
  requests: RecordedRequest[];
  /** Stops listening and drops every open connection, hung ones included. */
  close(): Promise<void>;
}

const ENDPOINTS: Record<string, Protocol> = {
  '/chat/completions': 'openai-chat',
  '/responses': 'openai-responses',
  '/messages': 'anthropic-messages',
};

const NAME = 'nao test LLM server';

function protocolOf(url: string): Protocol | undefined {
  const path = url.split('?')[0] ?? '';
  return ENDPOINTS[path.startsWith('/v1/') ? path.slice(3) : path];
}

function errorBodyFor(protocol: Protocol | undefined, status: number, message: string): unknown {
  return protocol === 'anthropic-messages'
    ? anthropicErrorBody(status, message)
    : openaiErrorBody(status, message);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function describe(request: ScriptRequest): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const last = request.messages.at(-1);
  const excerpt = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);
  const tail =
    last?.role === 'tool'
      ? `, last message: tool result of ${last.toolName ?? last.toolCallId ?? '?'}: ${excerpt(last.content)}`
      : '';
  return `request #${request.index} (${request.protocol}, model ${JSON.stringify(request.model)}, prompt ${excerpt(lastUser?.content ?? '')}${tail})`;
}

/**
 * Starts an HTTP server on 127.0.0.1 that answers OpenAI Chat Completions, OpenAI Responses
 * and Anthropic Messages requests with scripted turns, so tests exercise the real provider
 * packages without reaching a real LLM.
 */
export async function startTestLlmServer(options: StartTestLlmServerOptions): Promise<TestLlmServer> {
  const { script } = options;
  const requests: RecordedRequest[] = [];
  const store: ResponsesItemStore = new Map();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const pause = (ms: number, response: ServerResponse) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
      response.once('close', () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve();
      });
    });

  const chooseTurn = async (request: ScriptRequest): Promise<Turn> => {
    if (typeof script === 'function') {
      const turn = await script(request);
      if (typeof turn !== 'object' || turn === null) {
        throw new Error(
          `the script function returned ${String(turn)} for ${describe(request)}; return a Turn object`,
        );
      }
      return turn;
    }
    const turn = script[request.index];
    if (turn === undefined) {
      throw new Error(`no scripted turn for ${describe(request)}; the script has ${script.length} turn(s)`);
    }
    return turn;
  };

  const render = (request: ScriptRequest, turn: Turn, forcedTool: string | null): RenderedBody => {
    const context: ReplyContext = { index: request.index, model: request.model, forcedTool };
    switch (request.protocol) {
      case 'openai-chat': {
        const content = replyContent({ turn, context, toolCallId: (n) => chatToolCallId(context, n) });
        const streamOptions = request.body.stream_options as { include_usage?: unknown } | undefined;
        return renderOpenaiChat({
          content,
          context,
          stream: request.stream,
          includeUsage: streamOptions?.include_usage === true,
        });
      }
      case 'openai-responses': {
        const content = replyContent({ turn, context, toolCallId: (n) => responsesToolCallId(context, n) });
        return renderOpenaiResponses({ content, context, stream: request.stream, store });
      }
      case 'anthropic-messages': {
        const content = replyContent({ turn, context, toolCallId: (n) => anthropicToolCallId(context, n) });
        return renderAnthropicMessages({ content, context, stream: request.stream });
      }
    }
  };

  const send = (options: {
    response: ServerResponse;
    status: number;
    headers: Record<string, string>;
    body: RenderedBody;
    hangMidBody: boolean;
  }) => {
    const { response, body } = options;
    if (response.destroyed) return;
    const streaming = body.contentType === 'text/event-stream';
    response.writeHead(options.status, {
      'content-type': body.contentType,
      ...(streaming ? { 'cache-control': 'no-cache', connection: 'keep-alive' } : {}),
      ...options.headers,
    });
    if (!options.hangMidBody) {
      for (const chunk of body.chunks) response.write(chunk);
      response.end();
      return;
    }
    if (body.chunks.length > 1) {
      for (const chunk of body.chunks.slice(0, Math.ceil(body.chunks.length / 2))) response.write(chunk);
    } else {
      const only = body.chunks[0] ?? '';
      response.write(only.slice(0, Math.ceil(only.length / 2)));
    }
    response.flushHeaders();
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const arrivedAt = performance.now();
    const protocol = protocolOf(incoming.url ?? '');
    const raw = await readBody(incoming);
    if (protocol === undefined || incoming.method !== 'POST') {
      sendJson(
        response,
        404,
        errorBodyFor(
          protocol,
          404,
          `${NAME}: no endpoint ${incoming.method} ${incoming.url}; it serves POST /v1/chat/completions, /v1/responses and /v1/messages`,
        ),
      );
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch (error) {
      sendJson(
        response,
        400,
        errorBodyFor(
          protocol,
          400,
          `${NAME}: the request body is not a JSON object (${(error as Error).message})`,
        ),
      );
      return;
    }
    const normalized = normalizeRequest({ protocol, body, store });
    const request: ScriptRequest = {
      protocol,
      model: normalized.model,
      messages: normalized.messages,
      tools: normalized.tools,
      body,
      index: requests.length,
      stream: normalized.stream,
      wantsJson: normalized.wantsJson,
      headers: headersOf(incoming),
    };
    const recorded: RecordedRequest = {
      ...request,
      method: incoming.method,
      path: incoming.url ?? '',
    };
    requests.push(recorded);
    options.onRequest?.(recorded);

    let turn: Turn;
    let rendered: RenderedBody | null = null;
    try {
      turn = await chooseTurn(request);
      const isError = turn.status !== undefined && turn.status >= 400;
      if (!isError) rendered = render(request, turn, normalized.forcedTool);
    } catch (error) {
      sendJson(response, 500, errorBodyFor(protocol, 500, `${NAME}: ${(error as Error).message}`));
      return;
    }
    // Counted from the request's arrival, as a provider's latency is: reading and rendering it
    // here is part of the wait, not added to it.
    const wait = (turn.delayMs ?? 0) - (performance.now() - arrivedAt);
    if (wait > 0) await pause(wait, response);
    if (closed || response.destroyed) return;
    // A hung request keeps its socket open until the client gives up or the server closes.
    if (turn.hang === true) return;

    const status = turn.status ?? 200;
    if (rendered === null) {
      const errorBody = turn.errorBody ?? errorBodyFor(protocol, status, `${NAME}: scripted HTTP ${status}`);
      const text = typeof errorBody === 'string' ? errorBody : JSON.stringify(errorBody);
      let contentType = 'application/json';
      if (typeof errorBody === 'string') {
        try {
          JSON.parse(errorBody);
        } catch {
          contentType = 'text/plain';
        }
      }
      rendered = { contentType, chunks: [text] };
    }
    send({
      response,
      status,
      headers: turn.headers ?? {},
      body: rendered,
      hangMidBody: turn.hang === 'mid-body',
    });
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      sendJson(response, 500, {
        error: { message: `${NAME}: ${(error as Error).message}`, type: 'server_error' },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) {
          resolve();
          return;
        }
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
