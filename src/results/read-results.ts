/**
 * Reads a results file written by any version of nao: the fields it relies on are checked,
 * unknown fields are kept, and fields added after a file was written get their defaults
 * (`status` from `passed`/message, `summary` and `by_model` computed from the results).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { messageOf, UsageError } from '../errors/index.js';
import type {
  DataRow,
  DiffRecord,
  ModelSummary,
  Recount,
  RepeatStats,
  ResultsFile,
  RunDetails,
  RunResult,
  Summary,
  ToolCallRecord,
} from './results-file.js';
import { RUN_STATUSES, statusOf } from './run-status.js';
import { ensureByModel, summarize } from './summarize.js';

const nullableNumber = z.number().nullable().optional();
const nullableString = z.string().nullable().optional();
// Checked as "an array of objects" without parsing each cell: files hold up to millions of them.
const rows = z
  .custom<Record<string, unknown>[]>(
    (value) =>
      Array.isArray(value) &&
      value.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row)),
    { message: 'expected an array of row objects' },
  )
  .nullable()
  .optional();
const columns = z.array(z.string()).nullable().optional();

const detailsSchema = z.looseObject({
  prompt: nullableString,
  response_text: nullableString,
  actual_data: rows,
  expected_data: rows,
  actual_columns: columns,
  expected_columns: columns,
  actual_row_count: nullableNumber,
  expected_row_count: nullableNumber,
  reference_sql: nullableString,
  tool_calls: z.array(z.unknown()).nullable().optional(),
  extraction_sql: nullableString,
  extraction_error: nullableString,
  extraction_attempts: nullableNumber,
  diff: z.looseObject({ kind: z.string(), text: z.string() }).nullable().optional(),
  /** The text diff of files written before `diff` existed. */
  comparison: nullableString,
  assertions: z
    .array(z.looseObject({ passed: z.boolean(), message: z.string() }))
    .nullable()
    .optional(),
  error: nullableString,
  finish_reason: nullableString,
  usage: z.looseObject({}).nullable().optional(),
  cost_breakdown: z.looseObject({}).nullable().optional(),
  extraction_usage: z.looseObject({}).nullable().optional(),
  extraction_cost: nullableNumber,
  snapshot_consistent: z.boolean().nullable().optional(),
  replayed: z.boolean().nullable().optional(),
  mock: z.boolean().nullable().optional(),
});

/** A name as YAML may have typed it (`name: 2024`): read as its text. */
const nameText = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const runSchema = z.looseObject({
  name: nameText,
  model: nameText,
  passed: z.boolean(),
  message: nullableString,
  tokens: nullableNumber,
  cost: nullableNumber,
  duration_ms: nullableNumber,
  tool_call_count: nullableNumber,
  status: z.enum(RUN_STATUSES as [string, ...string[]]).optional(),
  attempt: z.number().int().positive().optional(),
  file: z.string().optional(),
  /** Where files written before `details.error` existed kept the error. */
  error: nullableString,
  details: detailsSchema.nullable().optional(),
});

const fileSchema = z.looseObject({
  timestamp: z.string(),
  results: z.array(runSchema),
  summary: z.looseObject({}).nullable().optional(),
  by_model: z
    .array(z.looseObject({ model: z.string() }))
    .nullable()
    .optional(),
  repeats: z
    .array(z.looseObject({ name: z.string(), model: z.string(), runs: z.number(), passes: z.number() }))
    .nullable()
    .optional(),
  models: z.array(z.string()).nullable().optional(),
});

type RawRun = z.infer<typeof runSchema>;
type RawDetails = z.infer<typeof detailsSchema>;

// The intervals are not required: files written before them get them computed (ensureByModel).
const SUMMARY_KEYS: readonly (keyof Summary)[] = (Object.keys(summarize([])) as (keyof Summary)[]).filter(
  (key) => key !== 'pass_rate_ci95' && key !== 'pass_rate_ci_method',
);

function hasAllKeys(value: object, keys: readonly string[]): boolean {
  return keys.every((key) => key in value);
}

function normalizeToolCall(raw: unknown): ToolCallRecord {
  if (raw === null || typeof raw !== 'object')
    return { tool_name: '', tool_call_id: '', toolName: '', toolCallId: '', args: null, result: raw };
  const call = raw as Record<string, unknown>;
  const text = (...values: unknown[]) =>
    values.find((value): value is string => typeof value === 'string') ?? '';
  const name = text(call.tool_name, call.toolName);
  const id = text(call.tool_call_id, call.toolCallId);
  return {
    ...call,
    tool_name: name,
    tool_call_id: id,
    toolName: name,
    toolCallId: id,
    args: call.args ?? call.input ?? null,
    result: call.result ?? call.output ?? null,
  };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function normalizeDetails(raw: RawDetails | null | undefined, run: RawRun): RunDetails {
  const details: RawDetails = raw ?? {};
  const diff: DiffRecord | null =
    details.diff ??
    (typeof details.comparison === 'string' && details.comparison !== ''
      ? { kind: 'text', text: details.comparison }
      : null);
  return {
    ...details,
    prompt: details.prompt ?? '',
    response_text: details.response_text ?? null,
    actual_data: (details.actual_data as DataRow[] | null | undefined) ?? null,
    expected_data: (details.expected_data as DataRow[] | null | undefined) ?? null,
    actual_columns: details.actual_columns ?? null,
    expected_columns: details.expected_columns ?? null,
    // Files written before the counts existed saved every row.
    actual_row_count: details.actual_row_count ?? details.actual_data?.length ?? null,
    expected_row_count: details.expected_row_count ?? details.expected_data?.length ?? null,
    reference_sql: details.reference_sql ?? null,
    tool_calls: (details.tool_calls ?? []).map(normalizeToolCall),
    extraction_sql: details.extraction_sql ?? stringOrNull(details.verification_sql),
    verification_sql: stringOrNull(details.verification_sql) ?? details.extraction_sql ?? null,
    extraction_error: details.extraction_error ?? null,
    extraction_attempts: details.extraction_attempts ?? 0,
    diff,
    comparison: details.comparison ?? diff?.text ?? null,
    assertions: details.assertions ?? [],
    error: details.error ?? run.error ?? null,
    finish_reason: details.finish_reason ?? null,
    usage: (details.usage as RunDetails['usage'] | undefined) ?? null,
    cost_breakdown: (details.cost_breakdown as RunDetails['cost_breakdown'] | undefined) ?? null,
    extraction_usage: (details.extraction_usage as RunDetails['extraction_usage'] | undefined) ?? null,
    extraction_cost: details.extraction_cost ?? null,
    snapshot_consistent: details.snapshot_consistent ?? null,
    replayed: details.replayed ?? false,
    mock: details.mock === true ? true : undefined,
  };
}

function normalizeRun(raw: RawRun): RunResult {
  const message = raw.message ?? '';
  const status = statusOf({ passed: raw.passed, message, status: raw.status });
  const { details: rawDetails, ...rest } = raw;
  return {
    ...rest,
    name: raw.name,
    model: raw.model,
    // `passed` means judged and passed; older files also said it of unverified runs.
    passed: status === 'passed',
    message,
    tokens: raw.tokens ?? 0,
    cost: raw.cost ?? null,
    duration_ms: raw.duration_ms ?? 0,
    tool_call_count: raw.tool_call_count ?? 0,
    error: raw.error ?? rawDetails?.error ?? null,
    status,
    attempt: raw.attempt ?? 1,
    file: raw.file ?? '',
    details: normalizeDetails(rawDetails, raw),
  };
}

function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  let out = '';
  for (const part of issuePath) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(top level)' : out;
}

function invalid(source: string, problem: string, cause?: unknown): UsageError {
  return new UsageError({
    code: 'RESULTS_FILE_INVALID',
    message: `${source} is not a readable nao results file: ${problem}. Pass a results_*.json file written by \`nao test\`.`,
    cause,
  });
}

/**
 * The file's own summary when it has every field this nao writes, else one computed from the
 * results. A summary written before `failed` meant `total - passed` is read with that meaning,
 * and a `total_cost` of 0 with no priced run is read as unknown.
 */
function readSummary(raw: Record<string, unknown> | null | undefined, results: RunResult[]): Summary {
  if (!raw || !hasAllKeys(raw, SUMMARY_KEYS)) return summarize(results);
  const summary = raw as unknown as Summary;
  return {
    ...summary,
    failed: summary.total - summary.passed,
    total_cost: costOf(summary),
  };
}

/** A `total_cost` of 0 where no run had a known cost is written for the viewer: read as unknown. */
function costOf(summary: Summary): number | null {
  const unpriced = summary.runs_without_cost >= summary.total && summary.total_cost === 0;
  return unpriced ? null : summary.total_cost;
}

/**
 * When the file's own summary counted more runs as passed than nao does (the original nao
 * counts a test without verification as passed), what the file said, so the viewer can say
 * why its numbers differ instead of showing a different pass rate silently.
 */
function recount(options: {
  raw: Record<string, unknown> | null | undefined;
  summary: Summary;
  runs: readonly RawRun[];
}): Recount | undefined {
  const { raw, summary } = options;
  const writtenPassed = raw?.passed;
  const writtenTotal = raw?.total;
  if (typeof writtenPassed !== 'number' || typeof writtenTotal !== 'number') return undefined;
  if (writtenPassed === summary.passed) return undefined;
  // The original writes no per-model numbers; its viewer counts the runs' own `passed` flags.
  const byModel = new Map<string, { model: string; written_passed: number; written_total: number }>();
  for (const run of options.runs) {
    const entry = byModel.get(run.model) ?? { model: run.model, written_passed: 0, written_total: 0 };
    entry.written_total++;
    if (run.passed) entry.written_passed++;
    byModel.set(run.model, entry);
  }
  return {
    written_passed: writtenPassed,
    written_total: writtenTotal,
    passed: summary.passed,
    unverified: summary.unverified,
    by_model: [...byModel.values()],
    reason:
      `This file counts ${writtenPassed} of ${writtenTotal} runs as passed; nao counts ${summary.passed}: ` +
      `${summary.unverified} run(s) had no verification (no reference SQL, or no data to compare), ` +
      'which the original nao counts as passed and nao counts as unverified, never as a pass.',
  };
}

/**
 * Validates parsed JSON as a results file and fills the fields newer versions added;
 * `source` names the file in the error (a UsageError with code RESULTS_FILE_INVALID).
 */
export function parseResultsFile(data: unknown, source: string): ResultsFile {
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const listed = issues.slice(0, 5).map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
    if (issues.length > listed.length) listed.push(`and ${issues.length - listed.length} more`);
    throw invalid(source, listed.join('; '));
  }
  const raw = parsed.data;
  const results = raw.results.map(normalizeRun);
  const summary = readSummary(raw.summary, results);
  const recounted = recount({ raw: raw.summary, summary, runs: raw.results });
  const byModel = raw.by_model?.every((entry) => hasAllKeys(entry, [...SUMMARY_KEYS, 'pass_rate']))
    ? (raw.by_model as unknown as ModelSummary[]).map((entry) => ({
        ...entry,
        total_cost: costOf(entry),
      }))
    : null;
  const { repeats, models, ...rest } = raw;
  return ensureByModel({
    ...rest,
    results,
    summary,
    ...(recounted === undefined ? {} : { recounted }),
    by_model: byModel,
    ...(models ? { models } : {}),
    ...(repeats
      ? {
          repeats: repeats.map(
            (entry) => ({ ...entry, k: typeof entry.k === 'number' ? entry.k : entry.runs }) as RepeatStats,
          ),
        }
      : {}),
  });
}

/** Reads and validates a results file; a missing, empty or malformed file is a UsageError naming it. */
export async function readResultsFile(filePath: string): Promise<ResultsFile> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (code === 'ENOENT') {
      throw new UsageError({
        code: 'RESULTS_FILE_NOT_FOUND',
        message: `${filePath} does not exist. Run \`nao test\` first, or pass a file from tests/outputs/.`,
        cause: error,
      });
    }
    throw invalid(filePath, messageOf(error), error);
  }
  if (text.trim() === '') throw invalid(filePath, 'the file is empty (still being written, or cut short)');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(filePath, `invalid JSON (${messageOf(error)})`, error);
  }
  return parseResultsFile(data, filePath);
}
