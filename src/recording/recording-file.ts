/**
 * The on-disk shape of one run's recording: `tests/recordings/<model>/<test path>/attempt-<k>.json`,
 * pretty-printed with a stable key order so re-recording shows as a readable git diff.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { NaoError } from '../errors/index.js';
import { writeFileAtomic } from '../files/index.js';
import { sortKeys } from './canonical-json.js';
import { formatJson } from './json-text.js';

export const RECORDING_FORMAT = 'nao-recording/1';

const messageSummarySchema = z.object({
  role: z.string(),
  hash: z.string(),
  tool: z.string().optional(),
  tool_calls: z.array(z.string()).optional(),
});

const exchangeSchema = z.object({
  /** 1-based position of the model call in its run: agent steps, then extraction calls. */
  step: z.number().int().min(1),
  request: z.object({
    /** SHA-256 of what the model saw (see request-summary.ts). */
    hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters'),
    /** A `RequestSummary`. */
    summary: z.object({
      model: z.string().nullable(),
      system: z.string().nullable(),
      messages: z.array(messageSummarySchema),
      tools: z.object({ names: z.array(z.string()), hash: z.string() }).nullable(),
      response_format: z.string().nullable(),
    }),
    /** The endpoint's URL path, for the reader; neither host nor query string are kept. */
    path: z.string(),
  }),
  response: z.object({
    status: z.number().int().min(200).max(599),
    content_type: z.string().nullable(),
    /** Parsed JSON when the provider answered JSON; the text otherwise (e.g. a stream of events). */
    body: z.unknown(),
  }),
});

const recordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  test: z.string(),
  /** `provider:model_id`. */
  model: z.string(),
  attempt: z.number().int().min(1),
  /** ISO timestamp of the end of the recorded run. */
  recorded_at: z.string(),
  note: z.string().optional(),
  exchanges: z.array(exchangeSchema),
});

export type RecordedExchange = z.infer<typeof exchangeSchema>;
export type RecordingFile = z.infer<typeof recordingSchema>;

/** A recording file that cannot be read as one: the user must re-record it. */
export class RecordingFileError extends NaoError {
  readonly file: string;

  constructor(options: { file: string; problem: string; cause?: unknown }) {
    super({
      code: 'RECORDING_INVALID',
      message: `${options.file} is not a usable nao recording: ${options.problem}. Delete it and re-record with \`nao test --record\`.`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.file = options.file;
  }
}

/** Characters Windows refuses in file names; control characters are replaced too. */
const UNSAFE_CHARACTERS = new Set(['<', '>', ':', '"', '\\', '|', '?', '*']);

function safeSegment(segment: string): string {
  const cleaned = [...segment]
    .map((character) =>
      UNSAFE_CHARACTERS.has(character) || character.charCodeAt(0) < 0x20 ? '_' : character,
    )
    .join('');
  // `.` and `..` would leave the recordings folder; Windows drops a trailing dot or space.
  if (/^\.+$/.test(cleaned)) return cleaned.replaceAll('.', '_');
  return cleaned.replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
}

/** `openai:gpt-4.1` → `openai__gpt-4.1`; `openrouter:meta/llama` → `openrouter__meta__llama`. */
export function modelFolderName(model: string): string {
  return safeSegment(model.replaceAll(':', '__').replaceAll('/', '__')) || '_';
}

/**
 * Where a run is recorded: `<recordingsDir>/<model>/<test file path without extension>/attempt-<k>.json`.
 * `test` is the test file path relative to tests/ (or the test name); it never escapes the folder.
 */
export function recordingFilePath(options: {
  recordingsDir: string;
  model: string;
  test: string;
  attempt: number;
}): string {
  const segments = options.test
    .replace(/\.ya?ml$/i, '')
    .split(/[/\\]/)
    .filter((segment) => segment !== '')
    .map(safeSegment);
  if (segments.length === 0) segments.push('_');
  return path.join(
    options.recordingsDir,
    modelFolderName(options.model),
    ...segments,
    `attempt-${options.attempt}.json`,
  );
}

/** The file's text: fixed top-level order, sorted keys inside response bodies, Biome's layout. */
export function formatRecording(recording: RecordingFile): string {
  const ordered = {
    format: recording.format,
    test: recording.test,
    model: recording.model,
    attempt: recording.attempt,
    recorded_at: recording.recorded_at,
    ...(recording.note === undefined ? {} : { note: recording.note }),
    exchanges: recording.exchanges.map((exchange) => ({
      step: exchange.step,
      request: {
        hash: exchange.request.hash,
        summary: exchange.request.summary,
        path: exchange.request.path,
      },
      response: {
        status: exchange.response.status,
        content_type: exchange.response.content_type,
        body: sortKeys(exchange.response.body),
      },
    })),
  };
  return formatJson(ordered);
}

/** Parses and checks a recording's text; `file` names it in errors. */
export function parseRecording(options: { text: string; file: string }): RecordingFile {
  let raw: unknown;
  try {
    raw = JSON.parse(options.text);
  } catch (error) {
    throw new RecordingFileError({
      file: options.file,
      problem: `invalid JSON (${(error as Error).message})`,
    });
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (typeof format === 'string' && format !== RECORDING_FORMAT && format.startsWith('nao-recording/')) {
    throw new RecordingFileError({
      file: options.file,
      problem: `it has format "${format}", this nao reads "${RECORDING_FORMAT}" (was it written by another version?)`,
    });
  }
  const parsed = recordingSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'the file' : issue.path.join('.');
    throw new RecordingFileError({ file: options.file, problem: `${where}: ${issue?.message ?? 'invalid'}` });
  }
  const steps = parsed.data.exchanges.map((exchange) => exchange.step);
  const repeated = steps.find((step, index) => steps.indexOf(step) !== index);
  if (repeated !== undefined) {
    throw new RecordingFileError({ file: options.file, problem: `step ${repeated} is recorded twice` });
  }
  return parsed.data;
}

/** Reads a recording; `null` when the file does not exist. */
export async function readRecording(file: string, displayPath = file): Promise<RecordingFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new RecordingFileError({
      file: displayPath,
      problem: `cannot read it (${(error as Error).message})`,
      cause: error,
    });
  }
  return parseRecording({ text, file: displayPath });
}

/** Writes a recording atomically: readers (and an interrupted run) never see half a file. */
export async function writeRecording(file: string, recording: RecordingFile): Promise<void> {
  await writeFileAtomic({ path: file, data: formatRecording(recording) });
}
