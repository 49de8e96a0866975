import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from 'ai';
import type { Hono } from 'hono';
import { z } from 'zod';
import { type AgentStep, runAgent } from '../agent/index.js';
import { messageOf } from '../errors/index.js';
import type { ProjectRuntime } from '../test-run/index.js';
import type { SessionEnv } from './accounts.js';
import type { ChatEvent, ChatMessageDisplay } from './chat-api-types.js';
import { saveChatTest } from './chat-save-test.js';
import type { ChatStore } from './chat-store.js';
import { parseJsonBody } from './request-body.js';
import { runtimeModel } from './runtime-model.js';

export interface ChatRoutesOptions {
  store: ChatStore;
  runtime: ProjectRuntime;
  log: (line: string) => void;
  /** Takes the server's folders out of errors shown on the page (wire-paths.ts). */
  scrubPaths?: (text: string) => string;
}

const newConversationSchema = z.object(
  { title: z.string().max(10_000).optional() },
  { error: 'the body must be a JSON object' },
);
const messageSchema = z.object(
  {
    prompt: z.string({ error: 'prompt is required' }).trim().min(1, 'prompt is required').max(100_000),
    model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  },
  { error: 'the body must be a JSON object' },
);
const saveTestSchema = z.object(
  {
    name: z.string({ error: 'name is required' }),
    prompt: z.string({ error: 'prompt is required' }),
    sql: z.string({ error: 'sql is required' }),
    database: z.string({ error: 'database must be a string' }).optional(),
  },
  { error: 'the body must be a JSON object' },
);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The `provider:model_id` values the page offers: the test models, then every configured one. */
export function chatModels(config: ProjectRuntime['config']): string[] {
  const models = [...config.test.models];
  for (const provider of config.llm.providers) {
    const prefix =
      provider.provider === 'openaiCompatible'
        ? `openaiCompatible/${provider.name ?? '?'}`
        : provider.provider;
    for (const model of provider.models) models.push(`${prefix}:${model.id}`);
  }
  return [...new Set(models)];
}

/** The chat page's API (`/api/chat/*`, `POST /api/tests`) and its bundled assets under `/chat`. */
export function registerChatApi(app: Hono<SessionEnv>, options: ChatRoutesOptions): void {
  const { store, runtime, log } = options;
  const scrubPaths = options.scrubPaths ?? ((text: string) => text);

  app.get('/api/chat/models', (c) => c.json({ models: chatModels(runtime.config) }));

  app.get('/api/chat/conversations', async (c) =>
    c.json({ conversations: await store.listConversations(c.get('session').user.id) }),
  );

  app.post('/api/chat/conversations', async (c) => {
    const body = await parseJsonBody(c, newConversationSchema);
    if (!body.success) return body.response;
    const conversation = await store.createConversation({
      userId: c.get('session').user.id,
      title: body.data.title ?? '',
    });
    return c.json({ conversation }, 201);
  });

  app.get('/api/chat/conversations/:id', async (c) => {
    const conversation = await store.getConversation({
      userId: c.get('session').user.id,
      conversationId: c.req.param('id'),
    });
    if (conversation === null) return c.json({ error: `No conversation ${c.req.param('id')}.` }, 404);
    return c.json({ conversation, messages: await store.listMessages(conversation.id) });
  });

  app.post('/api/chat/conversations/:id/messages', async (c) => {
    const user = c.get('session').user;
    const conversation = await store.getConversation({ userId: user.id, conversationId: c.req.param('id') });
    if (conversation === null) return c.json({ error: `No conversation ${c.req.param('id')}.` }, 404);
    const body = await parseJsonBody(c, messageSchema);
    if (!body.success) return body.response;
    const { prompt, model: modelString } = body.data;
    if (!chatModels(runtime.config).includes(modelString)) {
      return c.json({ error: `Model ${modelString} is not configured; pick one of the page's models.` }, 400);
    }
    const resolved = runtimeModel(runtime, modelString);
    if (!resolved.success) return c.json({ error: resolved.error }, 400);
    const { model } = resolved;
    const history = await store.history(conversation.id);
    const userMessage = await store.addMessage({
      conversationId: conversation.id,
      display: { role: 'user', text: prompt },
      modelMessages: [{ role: 'user', content: prompt }],
    });
    const signal = c.req.raw.signal;
    const encoder = new TextEncoder();

    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        const send = (event: ChatEvent) => {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
          } catch {
            open = false;
          }
        };
        const answer: Extract<ChatMessageDisplay, { role: 'assistant' }> = {
          role: 'assistant',
          model: modelString,
          text: '',
          toolCalls: [],
          clarification: null,
          error: null,
          stopped: false,
        };
        let modelMessages: ModelMessage[] = [];
        send({ type: 'user-message', message: userMessage });
        const started = Date.now();
        const elapsed = () => `${Date.now() - started} ms`;
        const logChat = (what: string) => log(`chat for ${user.email}: ${what}`);
        try {
          // Text streams as the model writes it; tool calls and results arrive when their step ends.
          let newStep = false;
          const result = await runAgent({
            prompt,
            model,
            mode: 'chat',
            context: runtime.agentContext,
            history,
            signal,
            maxSteps: runtime.config.agent.maxSteps,
            onTextDelta: (delta) => {
              const text = newStep && answer.text !== '' ? `\n\n${delta}` : delta;
              newStep = false;
              answer.text += text;
              send({ type: 'text-delta', text });
            },
            onStep: (step: AgentStep) => {
              newStep = true;
              for (const call of step.toolCalls) {
                answer.toolCalls.push({ ...call });
                send({
                  type: 'tool-call',
                  toolCall: { toolName: call.toolName, toolCallId: call.toolCallId, args: call.args },
                });
                send({ type: 'tool-result', toolCallId: call.toolCallId, result: call.result });
              }
            },
          });
          modelMessages = result.responseMessages;
          if (result.clarification !== null) {
            answer.clarification = result.clarification;
            send({ type: 'clarification', ...result.clarification });
          } else if (result.stepLimitReached) {
            answer.error = `The agent reached its limit of ${runtime.config.agent.maxSteps} steps without a final answer.`;
            send({ type: 'error', error: answer.error });
          }
          logChat(`${modelString}, ${result.toolCalls.length} tool call(s), ${elapsed()}`);
        } catch (error) {
          if (signal.aborted) {
            answer.stopped = true;
            logChat(`${modelString} stopped after ${elapsed()}`);
          } else {
            answer.error = scrubPaths(messageOf(error));
            send({ type: 'error', error: answer.error });
            logChat(`${modelString} failed after ${elapsed()}: ${messageOf(error)}`);
          }
        }
        try {
          const stored = await store.addMessage({
            conversationId: conversation.id,
            display: answer,
            modelMessages,
          });
          send({ type: 'done', message: stored });
        } catch (error) {
          logChat(`cannot store the answer: ${messageOf(error)}`);
          send({ type: 'error', error: scrubPaths(`The answer could not be saved: ${messageOf(error)}`) });
        }
        if (open) controller.close();
      },
    });
    return new Response(stream, {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  });

  app.post('/api/tests', async (c) => {
    const body = await parseJsonBody(c, saveTestSchema);
    if (!body.success) return body.response;
    const result = await saveChatTest({
      projectDir: runtime.config.projectDir,
      ...body.data,
      databaseNames: runtime.config.databases.map((database) => database.name),
    });
    if (!result.success) return c.json({ error: result.error }, result.status);
    log(`${c.get('session').user.email} saved ${result.relativePath}`);
    return c.json({ path: result.relativePath }, 201);
  });
}

/** Serves the built chat page at `/chat` and its files at `/chat/assets/*`. */
export function registerChatPage(app: Hono<SessionEnv>, options: { assetsDir?: string }): void {
  // Default: dist/web/chat/ of this package, whether running from dist/backend or src/backend.
  const assetsDir = path.resolve(
    options.assetsDir ?? fileURLToPath(new URL('../../dist/web/chat/', import.meta.url)),
  );
  const index = path.join(assetsDir, 'index.html');
  const notBuilt = `The chat page is not built: ${index} is missing. Run \`npx vite build --config web/chat/vite.config.ts\` in the nao package.`;
  app.get('/chat', (c) => {
    if (!existsSync(index)) return c.text(notBuilt, 503);
    // Relative asset URLs (base './') resolve against /chat/ only with the trailing slash.
    return c.redirect('/chat/', 302);
  });
  app.get('/chat/*', async (c) => {
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path.slice('/chat/'.length)) || 'index.html';
    } catch {
      return c.text('Not found', 404);
    }
    if (relative === 'index.html' && !existsSync(index)) return c.text(notBuilt, 503);
    const file = path.resolve(assetsDir, relative);
    const type = CONTENT_TYPES[path.extname(file)];
    if (!file.startsWith(assetsDir + path.sep) || type === undefined) return c.text('Not found', 404);
    try {
      const content = await readFile(file);
      return c.body(content, 200, {
        'content-type': type,
        // Hashed asset names never change content; the page itself must be fetched fresh.
        'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
    } catch {
      return c.text('Not found', 404);
    }
  });
}
