import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { AuthDatabase } from './auth-database.js';
import type { ChatMessage, ChatMessageDisplay, Conversation } from './chat-api-types.js';

export interface ChatStore {
  /** Creates the chat tables when missing; returns the names it created. */
  migrate(): Promise<string[]>;
  createConversation(options: { userId: string; title: string }): Promise<Conversation>;
  /** The user's conversations, most recently active first. */
  listConversations(userId: string): Promise<Conversation[]>;
  /** Null when it does not exist or belongs to someone else (the two are not told apart). */
  getConversation(options: { userId: string; conversationId: string }): Promise<Conversation | null>;
  listMessages(conversationId: string): Promise<ChatMessage[]>;
  /** The model messages of every earlier turn, in order, to continue the conversation. */
  history(conversationId: string): Promise<ModelMessage[]>;
  addMessage(options: {
    conversationId: string;
    display: ChatMessageDisplay;
    modelMessages: readonly ModelMessage[];
  }): Promise<ChatMessage>;
}

const TABLES = {
  nao_conversation: `CREATE TABLE IF NOT EXISTS nao_conversation (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)`,
  nao_chat_message: `CREATE TABLE IF NOT EXISTS nao_chat_message (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES nao_conversation(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  display TEXT NOT NULL,
  model_messages TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, position)
)`,
} as const;

const INDEX = 'CREATE INDEX IF NOT EXISTS nao_conversation_user ON nao_conversation (user_id, updated_at)';

type Row = Record<string, unknown>;

/**
 * Conversations and messages of `nao chat`, per user, in the same store as the accounts
 * (SQLite or PostgreSQL). Plain SQL both dialects accept; only the placeholders differ.
 */
export function createChatStore(options: { database: AuthDatabase; now?: () => Date }): ChatStore {
  const { database } = options;
  const now = options.now ?? (() => new Date());

  async function query(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (database.kind === 'postgres') {
      let index = 0;
      const text = sql.replace(/\?/g, () => `$${++index}`);
      return (await database.handle.query(text, params)).rows as Row[];
    }
    const statement = database.handle.prepare(sql);
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
    return [];
  }

  async function tableExists(name: string): Promise<boolean> {
    const rows =
      database.kind === 'postgres'
        ? await query(
            'SELECT 1 FROM information_schema.tables WHERE table_name = ? AND table_schema = current_schema()',
            [name],
          )
        : await query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]);
    return rows.length > 0;
  }

  function toConversation(row: Row): Conversation {
    return {
      id: String(row.id),
      title: String(row.title),
      createdAt: String(row.created_at),
      updatedAt: String(row.updated_at),
    };
  }

  return {
    async migrate() {
      const created: string[] = [];
      for (const [name, ddl] of Object.entries(TABLES)) {
        if (!(await tableExists(name))) created.push(name);
        await query(ddl);
      }
      await query(INDEX);
      return created;
    },

    async createConversation({ userId, title }) {
      const stamp = now().toISOString();
      const conversation = { id: randomUUID(), title: titleOf(title), createdAt: stamp, updatedAt: stamp };
      await query(
        'INSERT INTO nao_conversation (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        [conversation.id, userId, conversation.title, stamp, stamp],
      );
      return conversation;
    },

    async listConversations(userId) {
      const rows = await query(
        'SELECT id, title, created_at, updated_at FROM nao_conversation WHERE user_id = ? ORDER BY updated_at DESC, id',
        [userId],
      );
      return rows.map(toConversation);
    },

    async getConversation({ userId, conversationId }) {
      const rows = await query(
        'SELECT id, title, created_at, updated_at FROM nao_conversation WHERE id = ? AND user_id = ?',
        [conversationId, userId],
      );
      return rows[0] === undefined ? null : toConversation(rows[0]);
    },

    async listMessages(conversationId) {
      const rows = await query(
        'SELECT id, display, created_at FROM nao_chat_message WHERE conversation_id = ? ORDER BY position',
        [conversationId],
      );
      return rows.map((row) => ({
        ...(JSON.parse(String(row.display)) as ChatMessageDisplay),
        id: String(row.id),
        createdAt: String(row.created_at),
      }));
    },

    async history(conversationId) {
      const rows = await query(
        'SELECT model_messages FROM nao_chat_message WHERE conversation_id = ? ORDER BY position',
        [conversationId],
      );
      return rows.flatMap((row) => JSON.parse(String(row.model_messages)) as ModelMessage[]);
    },

    async addMessage({ conversationId, display, modelMessages }) {
      const stamp = now().toISOString();
      const id = randomUUID();
      // One writer per conversation at a time is the page's flow; the UNIQUE key catches a race.
      const [last] = await query(
        'SELECT MAX(position) AS position FROM nao_chat_message WHERE conversation_id = ?',
        [conversationId],
      );
      const position = last?.position == null ? 0 : Number(last.position) + 1;
      await query(
        'INSERT INTO nao_chat_message (id, conversation_id, position, display, model_messages, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [id, conversationId, position, JSON.stringify(display), JSON.stringify(modelMessages), stamp],
      );
      await query('UPDATE nao_conversation SET updated_at = ? WHERE id = ?', [stamp, conversationId]);
      return { ...display, id, createdAt: stamp };
    },
  };
}

/** The first line of the first question, short enough for the conversation list. */
function titleOf(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (line === '') return 'New conversation';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
