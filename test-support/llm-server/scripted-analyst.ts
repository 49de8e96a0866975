import { JUDGE_RUBRIC } from '../../src/grader/index.js';
import type { ScriptFunction, ScriptRequest, Turn, TurnUsage } from './index.js';

/**
 * How the stand-in analyst answers one test prompt. It is a script for the wire-protocol test
 * server, not a model: end-to-end tests and benchmarks use it to drive nao's real agent loop,
 * tools, extraction and comparison without reaching any LLM.
 */
export interface ScriptedAnswer {
  /** The SQL the analyst runs through `execute_sql`, one query per step for a list; omitted: it answers without SQL. */
  sql?: string | string[];
  /** The clarifying question it asks before anything else, when it has the `clarification` tool. */
  clarification?: string;
  /**
   * How it grades as the judge model (requests under the judge's rubric): a fixed verdict,
   * `'unreadable'` for a reply that is not the JSON asked for, or by default "pass" exactly
   * when the graded answer contains the expected answer (ignoring case).
   */
  judge?: { verdict: 'pass' | 'fail'; reason: string } | 'unreadable';
  /** Its final answer text. */
  text?: string;
  /**
   * The extraction query it writes over its result table (`{table}` is replaced by the
   * query id); default `SELECT * FROM "{table}"`. `null`: it says the tables cannot answer.
   */
  extractionSql?: string | null;
  /** A provider error instead of any answer (e.g. 500), for error runs. */
  failWithStatus?: number;
  /** Delay before every reply of this prompt (slow providers, timeouts). */
  delayMs?: number;
  usage?: TurnUsage;
}

const QUERY_ID = /query_[0-9a-f]{8}/g;
const DEFAULT_USAGE: TurnUsage = { input: 1000, output: 100 };

/**
 * A script that answers by prompt: the agent's request gets an `execute_sql` call, then a
 * text answer once the tool result is back; the extraction request (structured output) gets
 * a query over the last result table the conversation mentions; the judge's request gets a
 * verdict.
 */
export function scriptedAnalyst(options: {
  answers: Readonly<Record<string, ScriptedAnswer>>;
}): ScriptFunction {
  const prompts = Object.keys(options.answers).sort((a, b) => b.length - a.length);
  return (request: ScriptRequest): Turn => {
    const prompt = findPrompt(request, prompts);
    if (prompt === undefined) {
      return {
        status: 500,
        errorBody: { error: { message: 'scripted analyst: no answer scripted for this prompt' } },
      };
    }
    const answer = options.answers[prompt]!;
    const common = {
      usage: answer.usage ?? DEFAULT_USAGE,
      ...(answer.delayMs ? { delayMs: answer.delayMs } : {}),
    };
    if (answer.failWithStatus !== undefined) {
      return {
        ...common,
        status: answer.failWithStatus,
        errorBody: { error: { message: 'scripted provider failure' } },
      };
    }
    if (isJudgeRequest(request)) return { ...common, ...judgeReply(request, answer) };
    if (request.wantsJson) {
      const table = lastQueryId(request);
      if (answer.extractionSql === null || table === undefined) return { ...common, json: { sql: null } };
      const sql = (answer.extractionSql ?? 'SELECT * FROM "{table}"').replaceAll('{table}', table);
      return { ...common, json: { sql } };
    }
    const toolResults = request.messages.filter((message) => message.role === 'tool');
    const offersClarification = request.tools.some((tool) => tool.name === 'clarification');
    if (answer.clarification !== undefined && offersClarification && toolResults.length === 0) {
      return { ...common, toolCalls: [{ name: 'clarification', args: { question: answer.clarification } }] };
    }
    const queries =
      answer.sql === undefined ? [] : typeof answer.sql === 'string' ? [answer.sql] : answer.sql;
    const next = queries[toolResults.length];
    if (next !== undefined) {
      return { ...common, toolCalls: [{ name: 'execute_sql', args: { sql_query: next } }] };
    }
    return { ...common, text: answer.text ?? 'Here is the answer, from the query results above.' };
  };
}

function isJudgeRequest(request: ScriptRequest): boolean {
  return request.messages.some((message) => message.role === 'system' && message.content === JUDGE_RUBRIC);
}

/**
 * What a judge model takes from a judge request, read as loosely as a model might: every
 * value labelled as the expected answer is believed (so one smuggled into the agent's answer
 * fools it), and the agent's answer is the first one labelled so, up to where it visibly
 * ends. A JSON request is read by its `"key": "value"` pairs (found by pattern, not parsed,
 * so a quote left unescaped would end a value early); any other by its `<tag>` blocks.
 */
export function readJudgeRequest(text: string): { expected: string[]; answer: string } {
  if (text.trimStart().startsWith('{')) {
    const fields = [...text.matchAll(/"(expected_answer|agent_answer)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)].map(
      (match) => ({ key: match[1], value: decodeLoosely(match[2]!) }),
    );
    return {
      expected: fields.filter((field) => field.key === 'expected_answer').map((field) => field.value),
      answer: fields.find((field) => field.key === 'agent_answer')?.value ?? '',
    };
  }
  const expected = [...text.matchAll(/<expected_answer>\n?([\s\S]*?)\n?<\/expected_answer>/g)].map(
    (match) => match[1]!,
  );
  const start = text.indexOf('<agent_answer>\n');
  const end = text.indexOf('\n</agent_answer>', start);
  return { expected, answer: start < 0 || end < 0 ? '' : text.slice(start + '<agent_answer>\n'.length, end) };
}

/** A JSON string's text as a reader takes it, raw where it is not valid JSON (a raw newline). */
function decodeLoosely(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function judgeReply(request: ScriptRequest, answer: ScriptedAnswer): Pick<Turn, 'json' | 'text'> {
  if (answer.judge === 'unreadable') return { text: 'I think it is mostly right.' };
  if (answer.judge !== undefined) return { json: answer.judge };
  const graded = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const { expected, answer: given } = readJudgeRequest(graded);
  const stated = expected.find((candidate) => given.toLowerCase().includes(candidate.toLowerCase()));
  return {
    json: {
      verdict: stated === undefined ? 'fail' : 'pass',
      reason:
        stated === undefined
          ? `The answer does not state "${expected[0] ?? ''}".`
          : `The answer states "${stated}".`,
    },
  };
}

function findPrompt(request: ScriptRequest, prompts: readonly string[]): string | undefined {
  const userText = request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
  // The judge's request holds the prompt as a JSON string value.
  return prompts.find(
    (prompt) => userText.includes(prompt) || userText.includes(JSON.stringify(prompt).slice(1, -1)),
  );
}

function lastQueryId(request: ScriptRequest): string | undefined {
  let last: string | undefined;
  for (const message of request.messages) {
    for (const match of message.content.matchAll(QUERY_ID)) last = match[0];
  }
  return last;
}
