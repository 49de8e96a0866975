import { useEffect, useRef, useState } from 'preact/hooks';
import { cellText } from '../../../src/viewer/display-format.js';
import { formatSql } from '../../shared/format-sql.js';
import {
  type AppRunJob,
  api,
  type ChatEvent,
  type ChatMessage,
  type Conversation,
  sendMessage,
} from './api.js';

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
type ToolCall = AssistantMessage['toolCalls'][number];

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
      setMessages((list) => [...list, { id: 'pending-user', createdAt: '', role: 'user', text }]);
      await sendMessage({
        conversationId,
        prompt: text,
        model,
        signal: controller.signal,
        onEvent: (event: ChatEvent) => {
          switch (event.type) {
            case 'user-message':
              setMessages((list) =>
                list.map((message) => (message.id === 'pending-user' ? event.message : message)),
              );
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
              setMessages((list) =>
                list.map((message) => (message.id === 'pending' ? event.message : message)),
              );
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

  const lastUserPrompt = (index: number) => {
    for (let i = index - 1; i >= 0; i--) {
      const message = messages[i];
      if (message?.role === 'user') return message.text;
    }
    return '';
  };

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
          <span data-testid="signed-in-as">{email}</span>
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

function Answer(props: {
  message: AssistantMessage;
  question: string;
  pending: boolean;
  onOption: ((option: string) => void) | null;
}) {
  const { message } = props;
  const sqlCalls = message.toolCalls.filter((call) => call.toolName === 'execute_sql' && sqlOf(call) !== '');
  return (
    <div class="message assistant" data-testid="assistant-message">
      <div class="model muted">{message.model}</div>
      {message.toolCalls
        .filter((call) => call.toolName !== 'clarification')
        .map((call) => (
          <ToolCallView key={call.toolCallId} call={call} />
        ))}
      {message.text !== '' && (
        <div class="text" data-testid="answer-text">
          {message.text}
        </div>
      )}
      {message.clarification !== null && (
        <div class="clarification" data-testid="clarification">
          <p>{message.clarification.question}</p>
          <div class="options">
            {message.clarification.options.map((option) => (
              <button
                key={option}
                type="button"
                disabled={props.onOption === null}
                onClick={() => props.onOption?.(option)}
              >
                {option}
              </button>
            ))}
          </div>
        </div>
      )}
      {message.error !== null && (
        <p class="error" role="alert" data-testid="answer-error">
          {message.error}
        </p>
      )}
      {message.stopped && (
        <p class="muted" data-testid="stopped">
          Stopped.
        </p>
      )}
      {props.pending && !message.stopped && <p class="muted working">Working…</p>}
      {!props.pending && sqlCalls.length > 0 && props.question !== '' && (
        <SaveAsTest
          model={message.model}
          question={props.question}
          queries={sqlCalls.map((call) => ({ sql: sqlOf(call), database: databaseOf(call) }))}
        />
      )}
    </div>
  );
}

function sqlOf(call: ToolCall): string {
  const args = call.args as { sql_query?: unknown } | null;
  return typeof args?.sql_query === 'string' ? args.sql_query : '';
}

function databaseOf(call: ToolCall): string | undefined {
  const args = call.args as { database_id?: unknown } | null;
  return typeof args?.database_id === 'string' ? args.database_id : undefined;
}

function ToolCallView(props: { call: ToolCall }) {
  const { call } = props;
  if (call.toolName === 'execute_sql') {
    const result = call.result as {
      error?: string;
      columns?: { name: string }[];
      rows?: unknown[][];
      row_count?: number;
      has_more?: boolean;
    } | null;
    return (
      <details class="tool" open data-testid="tool-call">
        <summary>
          <span class="tool-name">execute_sql</span>
          {result === null && <span class="muted"> running…</span>}
          {result?.row_count !== undefined && (
            <span class="muted" data-testid="row-count">
              {' '}
              {result.row_count} {result.row_count === 1 ? 'row' : 'rows'}
            </span>
          )}
        </summary>
        <pre class="sql" data-testid="sql">
          {formatSql(sqlOf(call))}
        </pre>
        {typeof result?.error === 'string' && <p class="error">{result.error}</p>}
        {result?.columns && result.rows && (
          <div class="table-wrap">
            <table data-testid="result-table">
              <thead>
                <tr>
                  {result.columns.map((column, index) => (
                    <th key={index}>{column.name}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {row.map((cell, cellIndex) => (
                      <td key={cellIndex}>{cellText(cell)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {result.has_more === true && (
              <p class="muted">
                Showing {result.rows.length} of {result.row_count} rows.
              </p>
            )}
          </div>
        )}
      </details>
    );
  }
  const args = (call.args ?? {}) as Record<string, unknown>;
  const target = [args.path, args.pattern, args.query].filter((value) => typeof value === 'string').join(' ');
  const error = (call.result as { error?: unknown } | null)?.error;
  return (
    <div class="tool compact" data-testid="tool-call">
      <span class="tool-name">{call.toolName}</span> <code>{target}</code>
      {call.result === null && <span class="muted"> running…</span>}
      {typeof error === 'string' && <span class="error-inline"> {error}</span>}
    </div>
  );
}

const POLL_MS = 400;

/**
 * Save as test: writes tests/<name>.yml; "Save and run" then runs it at once on the answer's
 * model (judged like `nao test`, saved to tests/outputs/) and shows the saved test and its
 * verdict here.
 */
function SaveAsTest(props: {
  model: string;
  question: string;
  queries: { sql: string; database: string | undefined }[];
}) {
  const { queries } = props;
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState(queries.length - 1);
  const [sql, setSql] = useState(queries[queries.length - 1]?.sql ?? '');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [saved, setSaved] = useState<{ path: string; name: string; sql: string } | null>(null);
  const [job, setJob] = useState<AppRunJob | null>(null);
  const [runError, setRunError] = useState<string | null>(null);

  const jobId = job?.state === 'running' ? job.id : null;
  useEffect(() => {
    if (jobId === null) return;
    let live = true;
    const timer = setInterval(() => {
      api.testRun(jobId).then(
        (answer) => live && setJob(answer.job),
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [jobId]);

  if (!open) {
    return (
      <button type="button" class="secondary" onClick={() => setOpen(true)}>
        Save as test
      </button>
    );
  }

  const save = (andRun: boolean) => {
    setStatus(null);
    setRunError(null);
    const testName = name.trim();
    api
      .saveTest({ name: testName, prompt: props.question, sql, database: queries[chosen]?.database })
      .then((answer) => {
        setStatus({ ok: true, text: `Saved ${answer.path}.` });
        setSaved({ path: answer.path, name: testName, sql });
        if (!andRun) return;
        setJob(null);
        return api.runTests({ tests: [testName], models: [props.model] }).then(
          (started) => setJob(started.job),
          (error: Error) => setRunError(error.message),
        );
      })
      .catch((error: Error) => setStatus({ ok: false, text: error.message }));
  };

  return (
    <form
      class="save-test"
      data-testid="save-test"
      onSubmit={(event) => {
        event.preventDefault();
        save(false);
      }}
    >
      <label>
        Test name
        <input
          value={name}
          placeholder="e.g. revenue_by_month"
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
      </label>
      {queries.length > 1 && (
        <label>
          Query
          <select
            aria-label="Query"
            value={String(chosen)}
            onChange={(event) => {
              const index = Number((event.target as HTMLSelectElement).value);
              setChosen(index);
              setSql(queries[index]?.sql ?? '');
            }}
          >
            {queries.map((query, index) => (
              <option key={index} value={String(index)}>
                {`Query ${index + 1}: ${query.sql.slice(0, 60)}`}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        SQL
        <textarea
          class="sql-edit"
          value={sql}
          onInput={(event) => setSql((event.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="controls">
        <button type="submit">Save</button>
        <button type="button" onClick={() => save(true)} title={`Save, then run the test on ${props.model}`}>
          Save and run
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {status !== null && (
        <p class={status.ok ? 'ok' : 'error'} role="status" data-testid="save-status">
          {status.text}
        </p>
      )}
      {saved !== null && (job !== null || runError !== null) && (
        <div class="test-run" data-testid="test-run">
          <p>
            <strong>{saved.name}</strong> <span class="muted">{saved.path}</span>
          </p>
          <p class="muted">{props.question}</p>
          <pre class="sql">{formatSql(saved.sql)}</pre>
          {runError !== null && (
            <p class="error" role="alert" data-testid="test-run-status">
              {runError}
            </p>
          )}
          {job !== null && <TestRunStatus job={job} />}
        </div>
      )}
    </form>
  );
}

function TestRunStatus(props: { job: AppRunJob }) {
  const { job } = props;
  if (job.state === 'running') {
    return (
      <p class="muted working" data-testid="test-run-status">
        Running on {job.models.join(', ')}…
      </p>
    );
  }
  if (job.state === 'failed') {
    return (
      <p class="error" role="alert" data-testid="test-run-status">
        The run could not be saved: {job.error}
      </p>
    );
  }
  return (
    <div data-testid="test-run-status">
      {job.runs.map((run, index) => (
        <p key={index} class={run.status === 'passed' ? 'ok' : 'error'} data-testid="test-run-verdict">
          {run.status} on {run.model}: {run.message}
        </p>
      ))}
      <p class="muted">
        Results saved to <code>{job.path}</code>; open them with <code>nao test server</code>.
      </p>
    </div>
  );
}
