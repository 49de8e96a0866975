import { formatSql } from '../../shared/format-sql.js';
import { ResultTable } from '../../shared/result-table.js';
import type { ChatMessage } from './api.js';
import { SaveAsTest } from './save-as-test.js';

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
type ToolCall = AssistantMessage['toolCalls'][number];

/** One answer: its tool calls, its text or question back, and Save as test once it is complete. */
export function Answer(props: {
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
          queries={sqlCalls.map((call) => ({ sql: sqlOf(call), database: stringArg(call, 'database_id') }))}
        />
      )}
    </div>
  );
}

function stringArg(call: ToolCall, name: 'sql_query' | 'database_id'): string | undefined {
  const value = (call.args as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function sqlOf(call: ToolCall): string {
  return stringArg(call, 'sql_query') ?? '';
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
            <ResultTable
              columns={result.columns.map((column) => column.name)}
              rows={result.rows}
              testId="result-table"
            />
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
