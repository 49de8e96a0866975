import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema, storeKinds } from '../../test-support/backend/test-stores.js';
import { type AuthDatabase, openAuthDatabase } from './auth-database.js';
import { type ChatStore, createChatStore } from './chat-store.js';

const kinds = await storeKinds({ tests: 'the chat store tests' });

describe.each(kinds)('chat store over %s', (kind) => {
  let database: AuthDatabase;
  let store: ChatStore;
  let created: string[];
  let clock = new Date('2026-03-01T10:00:00Z');
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const projectDir = await mkdtemp(path.join(tmpdir(), 'nao-chat-store-'));
    cleanups.push(() => rm(projectDir, { recursive: true, force: true }));
    const schema = kind === 'postgres' ? await createPostgresSchema() : null;
    if (schema) cleanups.push(() => schema.drop());
    database = await openAuthDatabase({ projectDir, databaseUrl: schema?.url });
    cleanups.push(() => database.close());
    store = createChatStore({ database, now: () => clock });
    created = await store.migrate();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('creates its two tables once', async () => {
    expect(created).toEqual(['nao_conversation', 'nao_chat_message']);
    expect(await store.migrate()).toEqual([]);
  });

  it('keeps messages in order with their model messages, and reopening the store finds them', async () => {
    const conversation = await store.createConversation({
      userId: 'u1',
      title: '  Revenue by month?\nand more',
    });
    expect(conversation.title).toBe('Revenue by month?');
    await store.addMessage({
      conversationId: conversation.id,
      display: { role: 'user', text: 'Revenue by month?' },
      modelMessages: [{ role: 'user', content: 'Revenue by month?' }],
    });
    clock = new Date('2026-03-01T10:01:00Z');
    await store.addMessage({
      conversationId: conversation.id,
      display: {
        role: 'assistant',
        model: 'openai:gpt-4.1',
        text: 'It is 42 — “quoted” \u0000 ok',
        toolCalls: [
          {
            toolName: 'execute_sql',
            toolCallId: 'c1',
            args: { sql_query: 'SELECT 42' },
            result: { rows: [[42]] },
          },
        ],
        clarification: null,
        error: null,
        stopped: false,
      },
      modelMessages: [{ role: 'assistant', content: 'It is 42' }],
    });
    const reopened = createChatStore({ database });
    const messages = await reopened.listMessages(conversation.id);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[1]).toMatchObject({
      text: 'It is 42 — “quoted” \u0000 ok',
      toolCalls: [{ args: { sql_query: 'SELECT 42' } }],
    });
    expect(await reopened.history(conversation.id)).toEqual([
      { role: 'user', content: 'Revenue by month?' },
      { role: 'assistant', content: 'It is 42' },
    ]);
    const [listed] = await reopened.listConversations('u1');
    expect(listed).toMatchObject({ id: conversation.id, updatedAt: '2026-03-01T10:01:00.000Z' });
  });

  it('shows a user only their own conversations', async () => {
    const mine = await store.createConversation({ userId: 'alice', title: 'mine' });
    await store.createConversation({ userId: 'bob', title: 'theirs' });
    expect((await store.listConversations('alice')).map((c) => c.title)).toEqual(['mine']);
    expect(await store.getConversation({ userId: 'bob', conversationId: mine.id })).toBeNull();
    expect(await store.getConversation({ userId: 'alice', conversationId: mine.id })).toMatchObject({
      title: 'mine',
    });
    expect(await store.getConversation({ userId: 'alice', conversationId: 'no-such-id' })).toBeNull();
  });

  it('lists the most recently active conversation first', async () => {
    clock = new Date('2026-03-02T09:00:00Z');
    const older = await store.createConversation({ userId: 'carol', title: 'older' });
    clock = new Date('2026-03-02T09:05:00Z');
    await store.createConversation({ userId: 'carol', title: 'newer' });
    clock = new Date('2026-03-02T09:10:00Z');
    await store.addMessage({
      conversationId: older.id,
      display: { role: 'user', text: 'again' },
      modelMessages: [],
    });
    expect((await store.listConversations('carol')).map((c) => c.title)).toEqual(['older', 'newer']);
  });

  it.each([
    ['', 'New conversation'],
    ['   \n  ', 'New conversation'],
    ['x'.repeat(200), `${'x'.repeat(79)}…`],
  ])('titles a conversation from %j as %j', async (title, expected) => {
    expect((await store.createConversation({ userId: 'dave', title })).title).toBe(expected);
  });
});
