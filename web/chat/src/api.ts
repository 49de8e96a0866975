/** The chat API as the page calls it; every failure becomes an Error with the server's message. */
import type { AppRunJob } from '../../../src/app-runs/app-run-types.js';
import type { ChatEvent, ChatMessage, Conversation } from '../../../src/backend/chat-api-types.js';

export type { AppRunJob, ChatEvent, ChatMessage, Conversation };

async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 401) {
    window.location.assign(`/login?next=${encodeURIComponent('/chat/')}`);
  }
  const data = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data as T;
}

export const api = {
  session: () => request<{ user: { email: string } }>('GET', '/api/auth/session'),
  models: () => request<{ models: string[] }>('GET', '/api/chat/models'),
  conversations: () => request<{ conversations: Conversation[] }>('GET', '/api/chat/conversations'),
  conversation: (id: string) =>
    request<{ conversation: Conversation; messages: ChatMessage[] }>(
      'GET',
      `/api/chat/conversations/${encodeURIComponent(id)}`,
    ),
  createConversation: (title: string) =>
    request<{ conversation: Conversation }>('POST', '/api/chat/conversations', { title }),
  saveTest: (body: { name: string; prompt: string; sql: string; database: string | undefined }) =>
    request<{ path: string }>('POST', '/api/tests', body),
  runTests: (body: { tests: string[]; models: string[] }) =>
    request<{ job: AppRunJob }>('POST', '/api/tests/runs', body),
  testRun: (id: string) => request<{ job: AppRunJob }>('GET', `/api/tests/runs/${encodeURIComponent(id)}`),
  cancelTestRun: (id: string) =>
    request<{ job: AppRunJob }>('DELETE', `/api/tests/runs/${encodeURIComponent(id)}`),
};

/** Sends a question and calls `onEvent` for each streamed event until the run ends or `signal` aborts. */
export async function sendMessage(options: {
  conversationId: string;
  prompt: string;
  model: string;
  signal: AbortSignal;
  onEvent: (event: ChatEvent) => void;
}): Promise<void> {
  const response = await fetch(
    `/api/chat/conversations/${encodeURIComponent(options.conversationId)}/messages`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: options.prompt, model: options.model }),
      signal: options.signal,
    },
  );
  if (!response.ok || response.body === null) {
    const data = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(data.error ?? `HTTP ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const lines = (buffer + value).split('\n');
    // The last part is a line still being written.
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') options.onEvent(JSON.parse(line) as ChatEvent);
  }
}
