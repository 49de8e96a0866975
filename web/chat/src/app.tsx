import { useEffect, useRef, useState } from 'preact/hooks';
import { Answer, type AssistantMessage } from './answer.js';
import { api, type ChatEvent, type ChatMessage, type Conversation, sendMessage } from './api.js';

/** The answer being written: shown like a stored one until the server confirms it. */
function pendingAnswer(model: string): AssistantMessage {
  return {
    id: 'pending',
    createdAt: '',
    role: 'assistant',
    model,
    text: '',
    toolCalls: [],
    clarification: null,
    error: null,
    stopped: false,
  };
}

function conversationIdFromHash(): string | null {
  const match = /^#\/c\/([\w-]+)$/.exec(window.location.hash);
  return match?.[1] ?? null;
}

export function App() {
  const [email, setEmail] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [model, setModel] = useState('');
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [currentId, setCurrentId] = useState<string | null>(conversationIdFromHash());
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [running, setRunning] = useState<AbortController | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  /** The conversation this page created last: it shows all of it, and loading it would race its answer. */
  const createdHere = useRef<string | null>(null);

  useEffect(() => {
    Promise.all([api.session(), api.models(), api.conversations()])
      .then(([session, list, history]) => {
        setEmail(session.user.email);
        setModels(list.models);
        setModel((current) => current || (list.models[0] ?? ''));
        setConversations(history.conversations);
      })
      .catch((error: Error) => setPageError(error.message));
    const onHash = () => setCurrentId(conversationIdFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    // A load answered before the first message was stored could land after the answer and
    // take both off the page. Once the page moves elsewhere, this one loads like any other.
    if (currentId !== null && currentId === createdHere.current) return;
    createdHere.current = null;
    if (currentId === null) {
      setMessages([]);
      return;
    }
    let live = true;
    api
      .conversation(currentId)
      .then((data) => live && setMessages(data.messages))
      .catch((error: Error) => live && setPageError(error.message));
    return () => {
      live = false;
    };
  }, [currentId]);

  useEffect(() => endRef.current?.scrollIntoView({ block: 'end' }), [messages]);

  async function ask(prompt: string) {
    const text = prompt.trim();
    if (text === '' || running !== null || model === '') return;
    setPageError(null);
    const controller = new AbortController();
    setRunning(controller);
    let conversationId = currentId;
    try {
      if (conversationId === null) {
        const { conversation } = await api.createConversation(text);
        conversationId = conversation.id;
        createdHere.current = conversation.id;
        setConversations((list) => [conversation, ...list]);
        window.history.replaceState(null, '', `#/c/${conversation.id}`);
        setCurrentId(conversation.id);
      }
      setDraft('');
      let answer = pendingAnswer(model);
      const update = (change: Partial<AssistantMessage>) => {
        answer = { ...answer, ...change };
        const shown = answer;
        setMessages((list) => [...list.filter((message) => message.id !== 'pending'), shown]);
      };
      const replace = (id: string, stored: ChatMessage) =>
        setMessages((list) => list.map((message) => (message.id === id ? stored : message)));
      setMessages((list) => [...list, { id: 'pending-user', createdAt: '', role: 'user', text }]);
      await sendMessage({
        conversationId,
        prompt: text,
        model,
        signal: controller.signal,
        onEvent: (event: ChatEvent) => {
          switch (event.type) {
            case 'user-message':
              replace('pending-user', event.message);
              update({});
              break;
            case 'text-delta':
              update({ text: answer.text + event.text });
              break;
            case 'tool-call':
              update({ toolCalls: [...answer.toolCalls, { ...event.toolCall, result: null }] });
              break;
            case 'tool-result':
              update({
                toolCalls: answer.toolCalls.map((call) =>
                  call.toolCallId === event.toolCallId ? { ...call, result: event.result } : call,
                ),
              });
              break;
            case 'clarification':
              update({ clarification: { question: event.question, options: event.options } });
              break;
            case 'error':
              update({ error: event.error });
              break;
            case 'done':
              replace('pending', event.message);
              break;
          }
        },
      });
    } catch (error) {
      if (controller.signal.aborted) {
        setMessages((list) =>
          list.map((message) =>
            message.id === 'pending' && message.role === 'assistant'
              ? { ...message, stopped: true }
              : message,
          ),
        );
      } else {
        setPageError((error as Error).message);
      }
    } finally {
      setRunning(null);
      api
        .conversations()
        .then((data) => setConversations(data.conversations))
        .catch(() => {});
    }
  }

  function newConversation() {
    if (running !== null) return;
    window.history.replaceState(null, '', '#/');
    setCurrentId(null);
  }

  const lastUserPrompt = (index: number) =>
    messages.slice(0, index).findLast((message) => message.role === 'user')?.text ?? '';

  return (
    <div class="layout">
      <aside class="sidebar">
        <div class="brand">nao chat</div>
        <button type="button" class="new" onClick={newConversation} disabled={running !== null}>
          + New conversation
        </button>
        <nav aria-label="Conversations">
          <ul class="conversations" data-testid="conversations">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <a href={`#/c/${conversation.id}`} class={conversation.id === currentId ? 'current' : ''}>
                  {conversation.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <a href="/account" data-testid="signed-in-as">
            {email}
          </a>
          <form method="post" action="/logout">
            <button type="submit" class="link">
              Log out
            </button>
          </form>
        </div>
      </aside>
      <main class="chat">
        {pageError !== null && (
          <p class="error" role="alert">
            {pageError}
          </p>
        )}
        <div class="messages" data-testid="messages">
          {messages.length === 0 && <p class="muted empty">Ask a question about your data.</p>}
          {messages.map((message, index) =>
            message.role === 'user' ? (
              <div key={message.id} class="message user" data-testid="user-message">
                {message.text}
              </div>
            ) : (
              <Answer
                key={message.id}
                message={message}
                question={lastUserPrompt(index)}
                pending={message.id === 'pending'}
                onOption={running === null && index === messages.length - 1 ? (option) => ask(option) : null}
              />
            ),
          )}
          <div ref={endRef} />
        </div>
        <form
          class="composer"
          onSubmit={(event) => {
            event.preventDefault();
            void ask(draft);
          }}
        >
          <textarea
            aria-label="Message"
            placeholder="Ask about your data…"
            value={draft}
            onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void ask(draft);
              }
            }}
          />
          <div class="controls">
            <select
              aria-label="Model"
              value={model}
              onChange={(event) => setModel((event.target as HTMLSelectElement).value)}
            >
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            {running === null ? (
              <button type="submit" disabled={draft.trim() === '' || model === ''}>
                Send
              </button>
            ) : (
              <button type="button" class="stop" onClick={() => running.abort()}>
                Stop
              </button>
            )}
          </div>
          {models.length === 0 && (
            <p class="error">
              No model is configured: add one under test.models or llm.providers in nao_config.yaml.
            </p>
          )}
        </form>
      </main>
    </div>
  );
}
