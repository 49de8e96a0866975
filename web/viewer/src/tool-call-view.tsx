import type { ToolCallRecord } from '../../../src/results/index.js';
import { cellText, integerText } from '../../../src/viewer/display-format.js';
import { formatSql } from '../../shared/format-sql.js';
import { ResultTable } from '../../shared/result-table.js';

/** Longest JSON shown for a tool result before it is cut (the file keeps it whole). */
const MAX_JSON_CHARS = 20_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_JSON_CHARS
    ? `${text.slice(0, MAX_JSON_CHARS)}\n… ${integerText(text.length - MAX_JSON_CHARS)} more characters`
    : text;
}

function ArgumentList(props: { args: Record<string, unknown> }) {
  const entries = Object.entries(props.args);
  if (entries.length === 0) return null;
  return (
    <dl class="args">
      {entries.map(([key, value]) => (
        <div key={key} class="arg">
          <dt>{key}</dt>
          <dd>
            {typeof value === 'string' && !value.includes('\n') ? (
              <code>{value}</code>
            ) : (
              <pre class="code">{typeof value === 'string' ? value : jsonText(value)}</pre>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function columnName(column: unknown): string {
  return isRecord(column) && typeof column.name === 'string' ? column.name : cellText(column);
}

/** An `execute_sql` result ({id, columns, rows, row_count, note…}) as a small table. */
function QueryResultView(props: { result: Record<string, unknown> }) {
  const { result } = props;
  const columns = Array.isArray(result.columns) ? result.columns.map(columnName) : [];
  const rows = Array.isArray(result.rows) ? result.rows.filter(Array.isArray) : [];
  const rowCount = typeof result.row_count === 'number' ? result.row_count : rows.length;
  return (
    <div class="query-result">
      <p class="meta">
        {typeof result.id === 'string' ? <code>{result.id}</code> : null}
        {typeof result.database_id === 'string' ? ` on ${result.database_id}` : null} ·{' '}
        {integerText(rowCount)} row
        {rowCount === 1 ? '' : 's'}
        {rows.length < rowCount ? `, first ${integerText(rows.length)} shown to the model` : ''}
        {result.truncated === true ? ' · cut at the row limit' : ''}
      </p>
      {typeof result.note === 'string' ? <p class="note">{result.note}</p> : null}
      <div class="table-scroll">
        <ResultTable columns={columns} rows={rows} class="data" />
      </div>
    </div>
  );
}

function ToolResult(props: { result: unknown }) {
  const { result } = props;
  if (isRecord(result) && Object.keys(result).length === 1 && typeof result.error === 'string') {
    return <pre class="code tool-error">{result.error}</pre>;
  }
  if (isRecord(result) && Array.isArray(result.columns) && Array.isArray(result.rows)) {
    return <QueryResultView result={result} />;
  }
  if (typeof result === 'string') return <pre class="code">{result}</pre>;
  return <pre class="code">{jsonText(result)}</pre>;
}

/**
 * One tool call: `execute_sql` shows its query as formatted SQL with the other arguments
 * listed apart, and its rows as a table; other tools show their arguments and result.
 */
export function ToolCallView(props: { call: ToolCallRecord; position: number }) {
  const { call } = props;
  const args = isRecord(call.args) ? call.args : null;
  const sql =
    call.tool_name === 'execute_sql' && args && typeof args.sql_query === 'string' ? args.sql_query : null;
  const otherArgs = args
    ? Object.fromEntries(Object.entries(args).filter(([key]) => !(sql !== null && key === 'sql_query')))
    : null;
  return (
    <article class="tool-call" data-tool={call.tool_name}>
      <header>
        <span class="tool-index">#{props.position}</span>
        <span class="tool-name">{call.tool_name || '(unnamed tool)'}</span>
        {call.tool_call_id ? <code class="tool-id">{call.tool_call_id}</code> : null}
      </header>
      {sql !== null ? (
        <pre class="code sql" data-testid="tool-sql">
          {formatSql(sql)}
        </pre>
      ) : null}
      {otherArgs ? <ArgumentList args={otherArgs} /> : null}
      {args === null && call.args !== null && call.args !== undefined ? (
        <pre class="code">{jsonText(call.args)}</pre>
      ) : null}
      <details class="tool-result" open={sql !== null}>
        <summary>Result</summary>
        <ToolResult result={call.result} />
      </details>
    </article>
  );
}
