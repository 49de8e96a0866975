/**
 * The messages of the extraction call: the agent's own conversation, then the request to
 * turn its answer into one DuckDB query over the tables of its results.
 */
import type { ModelMessage } from 'ai';
import { quoteIdentifier } from '../warehouse/index.js';
import type { LoadedTable } from './load-tables.js';

/**
 * The agent's turns as plain text. Providers disagree on what a history may hold: Anthropic
 * and Bedrock refuse tool blocks when no tools are declared (the extraction call declares
 * none), Gemini refuses a history that opens with a tool call, OpenAI refuses a tool result
 * whose call is missing. The same content as text is accepted by all of them.
 */
export function transcriptMessages(responseMessages: readonly ModelMessage[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const push = (role: 'user' | 'assistant', text: string) => {
    if (text === '') return;
    const last = messages.at(-1);
    // Consecutive turns of one role are merged: some providers require strict alternation.
    if (last !== undefined && last.role === role && typeof last.content === 'string') {
      last.content = `${last.content}\n\n${text}`;
    } else {
      messages.push({ role, content: text });
    }
  };
  for (const message of responseMessages) {
    // The agent's instructions are not part of its answer; tool results read as user turns.
    if (message.role === 'system') continue;
    push(message.role === 'assistant' ? 'assistant' : 'user', partsText(message.content));
  }
  return messages;
}

function partsText(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'tool-call':
        texts.push(
          `[Called tool ${part.toolName} (call ${part.toolCallId}) with input: ${safeJson(part.input)}]`,
        );
        break;
      case 'tool-result':
        texts.push(
          `[Result of tool ${part.toolName} (call ${part.toolCallId}): ${toolOutputText(part.output)}]`,
        );
        break;
      // Reasoning, images, files and approvals: neither needed to restate the answer nor
      // portable across providers.
    }
  }
  return texts.join('\n');
}

function toolOutputText(output: unknown): string {
  if (typeof output !== 'object' || output === null || !('type' in output)) return safeJson(output);
  const typed = output as { type: string; value?: unknown; reason?: unknown };
  switch (typed.type) {
    case 'text':
    case 'error-text':
      return String(typed.value);
    case 'json':
    case 'error-json':
      return safeJson(typed.value);
    case 'execution-denied':
      return `execution denied${typed.reason === undefined ? '' : `: ${String(typed.reason)}`}`;
    case 'content':
      return Array.isArray(typed.value)
        ? typed.value
            .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
            .filter((text) => text !== '')
            .join('\n')
        : '';
    default:
      return safeJson(output);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The table inventory: what the model may read, with DuckDB types as loaded. */
export function tableInventory(tables: readonly LoadedTable[]): string {
  return tables
    .map((table) => {
      if (table.columns.length === 0) return `- ${quoteIdentifier(table.id)}: no columns (not queryable)`;
      const rows = `${table.rowCount} row${table.rowCount === 1 ? '' : 's'}${table.truncated ? ' (cut at the row limit: not the whole result)' : ''}`;
      const columns = table.columns
        .map((column) => `${quoteIdentifier(column.name)} ${column.type}`)
        .join(', ');
      return `- ${quoteIdentifier(table.id)}: ${rows}; columns: ${columns}`;
    })
    .join('\n');
}

/** The request appended after the agent's conversation. */
export function extractionRequest(options: {
  question: string;
  tables: readonly LoadedTable[];
  expectedColumns: readonly string[];
}): string {
  const columns = options.expectedColumns.map(quoteIdentifier).join(', ');
  // Without a reference (a test that only counts rows or names columns) the answer keeps its own names.
  const columnsRule =
    options.expectedColumns.length === 0
      ? '- Return the columns of your answer, with the column names of your query results.'
      : `- Return exactly these columns, with these names: ${columns}`;
  return [
    'Your answer above must now be checked against reference data. Every query you ran is kept in full',
    '(you saw only the first rows of each) as a DuckDB table named after its query id.',
    '',
    `The question was: ${options.question}`,
    '',
    'Tables:',
    tableInventory(options.tables),
    '',
    'Write ONE DuckDB SELECT query over these tables that returns the data of your final answer.',
    'Rules:',
    '- Only read from the tables above, the warehouse is not reachable anymore.',
    columnsRule,
    '- Read the values from the tables, never retype them as literals.',
    '- Apply the same filters, aggregations and ordering as the answer you gave.',
    '- Set sql to null if these tables cannot answer the question.',
    '',
    'Reply with a JSON object {"sql": "<query>"} or {"sql": null}.',
  ].join('\n');
}

/** The repair request after a failed or refused query. */
export function repairRequest(error: string): string {
  return [
    `That query failed with: ${error}`,
    '',
    'Return a corrected DuckDB query, or set sql to null if the tables cannot answer the question.',
  ].join('\n');
}
