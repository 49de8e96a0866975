/**
 * Record and replay of model calls as a fetch wrapper. `nao test --record` forwards every
 * provider request to the network and keeps each exchange per (test, model, attempt, step);
 * `nao test --replay` answers every request from those files and never touches the network,
 * while tools, the reference SQL and the comparison still run for real.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import { isRetryableStatus, redactSecrets } from '../llm/index.js';
import { type OutgoingRequest, readOutgoingRequest } from './outgoing-request.js';
import { deterministicQueryIds } from './query-ids.js';
import { MissingRecordingError, StaleRecordingError } from './recording-errors.js';
import {
  RECORDING_FORMAT,
  type RecordedExchange,
  type RecordingFile,
  RecordingFileError,
  readRecording,
  recordingFilePath,
  writeRecording,
} from './recording-file.js';
import { describeChanges, summarizeRequest } from './request-summary.js';

export type RecorderMode = 'record' | 'replay';

/** Statuses whose responses have no body: the Response constructor refuses one, even empty. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/** One run of the suite, as the runner knows it. */
export interface RecordedRun {
  /** The test's name. */
  test: string;
  /**
   * The test file relative to tests/ (`finance/payment_methods.yml`): names the recording file
   * and seeds the query ids, so renaming a test's `name:` keeps its recordings. Default: `test`.
   */
  file?: string;
  /** `provider:model_id`. */
  model: string;
  /** 1-based. */
  attempt: number;
  /** The run's cancellation: a run cut short (Ctrl-C, --timeout) keeps its previous recording. */
  signal?: AbortSignal;
}

export interface CreateRecorderOptions {
  /** Usually `<project>/tests/recordings`. */
  recordingsDir: string;
  mode: RecorderMode;
  /** The network, in record mode (default: the standard fetch, as for live runs). Replay never calls it. */
  fetch?: typeof globalThis.fetch;
  /** Stamps `recorded_at`. */
  now?: () => Date;
  /** Written into every recording (e.g. that the answers were scripted). */
  note?: string;
  /** Recording paths in messages are shown relative to this folder (the project); default absolute. */
  displayDir?: string;
}

export interface Recorder {
  readonly mode: RecorderMode;
  readonly isReplaying: boolean;
  readonly recordingsDir: string;
  /** The transport to give `openProjectRuntime({ fetch })`: it records or replays per run. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Runs `fn` as one (test, model, attempt): model calls made inside it, in any async chain it
   * starts, belong to that run. In record mode the run's file is written (atomically, as a
   * whole) when `fn` settles, unless the run was cut short.
   */
  withRun<T>(run: RecordedRun, fn: () => Promise<T>): Promise<T>;
  /** The current run's query-id generator (record and replay); undefined outside a run. */
  currentQueryIdGenerator(): (() => string) | undefined;
  /**
   * The recording error (missing, stale, unreadable) behind a failed model call of the current
   * run. The provider and SDK layers rewrap what fetch throws; the client reports this instead.
   */
  currentRunError(): NaoError | undefined;
  /** The file a run is recorded in. */
  filePath(run: Pick<RecordedRun, 'test' | 'file' | 'model' | 'attempt'>): string;
}

interface RunContext {
  run: RecordedRun;
  file: string;
  /** `file` as shown in messages. */
  shownFile: string;
  queryIds: () => string;
  /** Record mode: the completed exchanges, in call order. */
  exchanges: RecordedExchange[];
  /** Replay mode: model calls answered so far. */
  calls: number;
  recording?: Promise<RecordingFile | null>;
  failure?: NaoError;
  /** A request was aborted by the caller (not by a model-call timeout). */
  cutShort: boolean;
}

/**
 * A recorder for one `nao test` command: hand `recorder.fetch` to the provider packages and run
 * each (test, model, attempt) inside `recorder.withRun`. Replay throws `MissingRecordingError` /
 * `StaleRecordingError` from fetch; `currentRunError()` gives them back past the SDK's wrapping.
 */
export function createRecorder(options: CreateRecorderOptions): Recorder {
  const { mode } = options;
  const recordingsDir = path.resolve(options.recordingsDir);
  const network = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const storage = new AsyncLocalStorage<RunContext>();
  const activeFiles = new Set<string>();

  const filePath = (run: Pick<RecordedRun, 'test' | 'file' | 'model' | 'attempt'>) =>
    recordingFilePath({ recordingsDir, model: run.model, test: run.file ?? run.test, attempt: run.attempt });
  const shown = (file: string) =>
    options.displayDir === undefined
      ? file
      : path.relative(options.displayDir, file).split(path.sep).join('/');

  const fail = (context: RunContext, error: NaoError): never => {
    context.failure ??= error;
    throw error;
  };

  const loadRecording = async (context: RunContext): Promise<RecordingFile | null> => {
    const recording = await readRecording(context.file, context.shownFile);
    if (
      recording !== null &&
      (recording.model !== context.run.model || recording.attempt !== context.run.attempt)
    ) {
      throw new RecordingFileError({
        file: context.shownFile,
        problem: `it holds ${recording.model} attempt ${recording.attempt}, not ${context.run.model} attempt ${context.run.attempt}`,
      });
    }
    return recording;
  };

  const replay = async (context: RunContext, request: { path: string; body: string }): Promise<Response> => {
    const step = ++context.calls;
    const point = {
      test: context.run.test,
      model: context.run.model,
      attempt: context.run.attempt,
      step,
      file: context.shownFile,
    };
    context.recording ??= loadRecording(context);
    let recording: RecordingFile | null;
    try {
      recording = await context.recording;
    } catch (error) {
      return fail(
        context,
        error instanceof NaoError
          ? error
          : new RecordingFileError({ file: context.shownFile, problem: String(error) }),
      );
    }
    const exchange = recording?.exchanges.find((candidate) => candidate.step === step);
    if (exchange === undefined) {
      const recordedSteps = recording?.exchanges.length ?? null;
      return fail(context, new MissingRecordingError({ ...point, recordedSteps }));
    }
    const current = summarizeRequest(request);
    if (current.hash !== exchange.request.hash) {
      return fail(
        context,
        new StaleRecordingError({
          ...point,
          changes: describeChanges(exchange.request.summary, current.summary),
        }),
      );
    }
    const { status, content_type: contentType, body } = exchange.response;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(NULL_BODY_STATUSES.has(status) ? null : text, {
      status,
      headers: contentType === null ? {} : { 'content-type': contentType },
    });
  };

  const record = async (
    context: RunContext,
    request: OutgoingRequest,
    signal: AbortSignal | undefined,
  ): Promise<Response> => {
    const noteCutShort = () => {
      if (wasCutShort(signal)) context.cutShort = true;
    };
    const response = await network(...request.forward).catch((error: unknown) => {
      noteCutShort();
      throw error;
    });
    // The SDK will ask again: only the answer it keeps is part of the run.
    if (isRetryableStatus(response.status)) return response;
    const summarized = summarizeRequest(request);
    const contentType = response.headers.get('content-type');
    const passedOn: ResponseInit = {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    };
    const commit = (bodyText: string) => {
      context.exchanges.push({
        step: context.exchanges.length + 1,
        request: { hash: summarized.hash, summary: summarized.summary, path: request.path },
        response: {
          status: response.status,
          content_type: contentType,
          body: storedBody(redactSecrets(bodyText, request.secrets), contentType),
        },
      });
    };

    if (response.body !== null && contentType?.includes('text/event-stream')) {
      // Passed through chunk by chunk; the exchange counts once the stream ended, before the
      // consumer sees the end, so the next call of the run gets the next step.
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              text += decoder.decode();
              commit(text);
              controller.close();
            } else {
              text += decoder.decode(value, { stream: true });
              controller.enqueue(value);
            }
          } catch (error) {
            noteCutShort();
            controller.error(error);
          }
        },
        async cancel(reason) {
          noteCutShort();
          await reader.cancel(reason);
        },
      });
      return new Response(stream, passedOn);
    }

    const bytes = await response.arrayBuffer().catch((error: unknown) => {
      noteCutShort();
      throw error;
    });
    commit(new TextDecoder().decode(bytes));
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, passedOn);
  };

  const recorderFetch: typeof globalThis.fetch = async (input, init) => {
    const context = storage.getStore();
    if (context === undefined) {
      throw new NaoError({
        code: 'RECORDING_NO_RUN',
        message: `A model call was made outside a recorded run while ${mode === 'record' ? 'recording' : 'replaying'}; every call must happen inside recorder.withRun().`,
      });
    }
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const request = await readOutgoingRequest(input, init);
    return mode === 'replay' ? replay(context, request) : record(context, request, signal);
  };

  const save = async (context: RunContext) => {
    if (context.cutShort || context.run.signal?.aborted) return;
    try {
      await writeRecording(context.file, {
        format: RECORDING_FORMAT,
        test: context.run.test,
        model: context.run.model,
        attempt: context.run.attempt,
        recorded_at: now().toISOString(),
        note: options.note,
        exchanges: context.exchanges,
      });
    } catch (error) {
      throw new NaoError({
        code: 'RECORDING_WRITE_FAILED',
        message: `Could not write the recording ${context.shownFile}: ${(error as Error).message}. Check that the folder is writable.`,
        cause: error,
      });
    }
  };

  return {
    mode,
    isReplaying: mode === 'replay',
    recordingsDir,
    fetch: recorderFetch,
    filePath,
    currentQueryIdGenerator: () => storage.getStore()?.queryIds,
    currentRunError: () => storage.getStore()?.failure,
    async withRun<T>(run: RecordedRun, fn: () => Promise<T>): Promise<T> {
      checkRun(run);
      const file = filePath(run);
      if (mode === 'record') {
        if (activeFiles.has(file)) {
          throw new NaoError({
            code: 'RECORDING_DUPLICATE_RUN',
            message: `Test "${run.test}" on ${run.model}, attempt ${run.attempt} is already being recorded; each run needs its own attempt number.`,
          });
        }
        activeFiles.add(file);
      }
      const context: RunContext = {
        run,
        file,
        shownFile: shown(file),
        queryIds: deterministicQueryIds({
          test: run.file ?? run.test,
          model: run.model,
          attempt: run.attempt,
        }),
        exchanges: [],
        calls: 0,
        cutShort: false,
      };
      const finish = async () => {
        if (mode === 'record') await save(context).finally(() => activeFiles.delete(file));
      };
      let value: T;
      try {
        value = await storage.run(context, fn);
      } catch (error) {
        // The run's own failure says more than a failed write of its recording.
        await finish().catch(() => undefined);
        throw error;
      }
      await finish();
      return value;
    },
  };
}

function checkRun(run: RecordedRun): void {
  const problems: string[] = [];
  if (typeof run.test !== 'string' || run.test.trim() === '') problems.push('test must be a non-empty name');
  if (run.file !== undefined && run.file.trim() === '') problems.push('file must not be empty');
  if (typeof run.model !== 'string' || !run.model.includes(':'))
    problems.push(`model must be provider:model_id, got "${run.model}"`);
  if (!Number.isInteger(run.attempt) || run.attempt < 1)
    problems.push(`attempt must be an integer >= 1, got ${run.attempt}`);
  if (problems.length > 0) {
    throw new NaoError({
      code: 'RECORDING_INVALID_RUN',
      message: `Invalid recorded run: ${problems.join('; ')}.`,
    });
  }
}

/**
 * Aborted by the caller (Ctrl-C, the run's time limit), not by the SDK's step or chunk timeout:
 * a timed-out call fails the run as a provider error does, and the run is recorded up to it.
 */
function wasCutShort(signal: AbortSignal | undefined): boolean {
  if (signal?.aborted !== true) return false;
  const reason: unknown = signal.reason;
  return !(reason instanceof DOMException && reason.name === 'TimeoutError');
}

/** Parsed JSON when the provider sent JSON, else the text (SSE streams, plain-text errors). */
function storedBody(text: string, contentType: string | null): unknown {
  if (contentType !== null && /\bjson\b/i.test(contentType)) {
    try {
      const value: unknown = JSON.parse(text);
      // A JSON string is kept as its raw text: replay sends string bodies verbatim.
      if (typeof value !== 'string') return value;
    } catch {
      // Kept as text: the provider said JSON but sent something else.
    }
  }
  return text;
}
