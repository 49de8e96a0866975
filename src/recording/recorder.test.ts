import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestLlmServer } from '../../test-support/llm-server/index.js';
import { NaoError } from '../errors/index.js';
import { resolveModel } from '../llm/index.js';
import { deterministicQueryIds } from './query-ids.js';
import { createRecorder, type RecordedRun } from './recorder.js';
import { MissingRecordingError, StaleRecordingError } from './recording-errors.js';
import { parseRecording, type RecordingFile } from './recording-file.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const RUN: RecordedRun = {
  test: 'total_revenue',
  file: 'total_revenue.yml',
  model: 'openai:gpt-4.1',
  attempt: 1,
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-recorder-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function body(prompt: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ model: 'gpt-4.1', input: [{ role: 'user', content: prompt }], ...extra });
}

function call(
  fetch: typeof globalThis.fetch,
  prompt: string,
  options: { host?: string; extra?: object } = {},
) {
  return fetch(`${options.host ?? 'https://api.openai.com'}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body(prompt, { ...options.extra }),
  });
}

/** A network that answers each prompt with a JSON reply naming it, and counts its calls. */
function fakeNetwork(reply: (prompt: string, index: number) => Response | Promise<Response> = jsonReply) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    const prompt = (JSON.parse(String(init?.body)) as { input: { content: string }[] }).input[0]!.content;
    return reply(prompt, calls.length - 1);
  };
  return { fetch, calls };
}

function jsonReply(prompt: string): Response {
  return Response.json({ id: 'resp_1', output_text: `answer to ${prompt}`, usage: { input_tokens: 10 } });
}

async function readFileOf(
  recorder: ReturnType<typeof createRecorder>,
  run: RecordedRun = RUN,
): Promise<RecordingFile> {
  const file = recorder.filePath(run);
  return parseRecording({ text: await readFile(file, 'utf8'), file });
}

async function record(prompts: string[], run: RecordedRun = RUN) {
  const network = fakeNetwork();
  const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
  await recorder.withRun(run, async () => {
    for (const prompt of prompts) await (await call(recorder.fetch, prompt)).text();
  });
  return recorder;
}

function replayer() {
  const network = fakeNetwork(() => {
    throw new Error('replay must not reach the network');
  });
  return { recorder: createRecorder({ recordingsDir: dir, mode: 'replay', fetch: network.fetch }), network };
}

function openaiModel(baseUrl: string, fetch: typeof globalThis.fetch) {
  return resolveModel({
    modelString: 'openai:gpt-4.1',
    config: { llm: { providers: [{ provider: 'openai', base_url: baseUrl, models: [] }] } },
    env: { OPENAI_API_KEY: KEY },
    fetch,
  });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('record mode', () => {
  it('forwards each call and stores it as a numbered exchange, the caller getting the real answer', async () => {
    const network = fakeNetwork();
    const recorder = createRecorder({
      recordingsDir: dir,
      mode: 'record',
      fetch: network.fetch,
      now: () => new Date('2025-02-09T14:30:22Z'),
      note: 'scripted',
    });
    const texts = await recorder.withRun(RUN, async () => [
      await (await call(recorder.fetch, 'first')).json(),
      await (await call(recorder.fetch, 'second')).json(),
    ]);
    expect(texts).toEqual([
      { id: 'resp_1', output_text: 'answer to first', usage: { input_tokens: 10 } },
      { id: 'resp_1', output_text: 'answer to second', usage: { input_tokens: 10 } },
    ]);
    expect(network.calls).toHaveLength(2);
    const file = await readFileOf(recorder);
    expect(recorder.filePath(RUN)).toBe(path.join(dir, 'openai__gpt-4.1', 'total_revenue', 'attempt-1.json'));
    expect(file).toMatchObject({
      format: 'nao-recording/1',
      test: 'total_revenue',
      model: 'openai:gpt-4.1',
      attempt: 1,
      recorded_at: '2025-02-09T14:30:22.000Z',
      note: 'scripted',
    });
    expect(file.exchanges.map((exchange) => exchange.step)).toEqual([1, 2]);
    expect(file.exchanges[1]).toMatchObject({
      request: { path: '/v1/responses', summary: { model: 'gpt-4.1', messages: [{ role: 'user' }] } },
      response: { status: 200, content_type: 'application/json', body: { output_text: 'answer to second' } },
    });
  });

  it('does not count an answer the SDK will ask again for', async () => {
    const server = await startTestLlmServer({
      script: [{ status: 503, headers: { 'retry-after-ms': '0' } }, { text: 'recovered' }],
    });
    try {
      const recorder = createRecorder({ recordingsDir: dir, mode: 'record' });
      const resolved = openaiModel(server.url, recorder.fetch);
      const text = await recorder.withRun(RUN, async () => {
        const result = await generateText({ model: resolved.model, prompt: 'q', ...resolved.callSettings });
        return result.text;
      });
      expect(text).toBe('recovered');
      expect(server.requests).toHaveLength(2);
      const file = await readFileOf(recorder);
      expect(file.exchanges).toHaveLength(1);
      expect(file.exchanges[0]).toMatchObject({ step: 1, response: { status: 200 } });
    } finally {
      await server.close();
    }
  });

  it('keeps a final error answer, which replay then gives back', async () => {
    const network = fakeNetwork(() =>
      Response.json({ error: { message: 'context too long' } }, { status: 400 }),
    );
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
    await recorder.withRun(RUN, async () => (await call(recorder.fetch, 'q')).text());
    const { recorder: replaying } = replayer();
    const response = await replaying.withRun(RUN, () => call(replaying.fetch, 'q'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { message: 'context too long' } });
  });

  it('passes a stream through and keeps its text', async () => {
    const events = ['data: {"delta":"Hel"}\n\n', 'data: {"delta":"lo"}\n\n', 'data: [DONE]\n\n'];
    const network = fakeNetwork(() => {
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const event of events) controller.enqueue(encoder.encode(event));
          controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
    });
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
    const received = await recorder.withRun(RUN, async () => (await call(recorder.fetch, 'q')).text());
    expect(received).toBe(events.join(''));
    const exchange = (await readFileOf(recorder)).exchanges[0]!;
    expect(exchange.response).toEqual({
      status: 200,
      content_type: 'text/event-stream; charset=utf-8',
      body: events.join(''),
    });

    const { recorder: replaying } = replayer();
    const replayed = await replaying.withRun(RUN, async () => {
      const response = await call(replaying.fetch, 'q');
      return { type: response.headers.get('content-type'), text: await response.text() };
    });
    expect(replayed).toEqual({ type: 'text/event-stream; charset=utf-8', text: events.join('') });
  });

  it('stores no key: not the headers, not the query string, not a key the provider echoes', async () => {
    const network = fakeNetwork(() =>
      Response.json(
        { error: { message: `Incorrect API key provided: ${KEY}. Header was Bearer ${KEY}` } },
        { status: 401 },
      ),
    );
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
    await recorder.withRun(RUN, async () => {
      const response = await recorder.fetch(
        `https://generativelanguage.googleapis.com/v1beta/models/gemini:generateContent?key=${KEY}`,
        {
          method: 'POST',
          headers: { 'x-goog-api-key': KEY, 'x-api-key': KEY, 'api-key': KEY },
          body: body('q'),
        },
      );
      await response.text();
    });
    const text = await readFile(recorder.filePath(RUN), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('SECRET');
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text).not.toContain('key=');
    expect(text).toContain('[redacted]');
    expect(text).toContain('"path": "/v1beta/models/gemini:generateContent"');
  });

  it('writes the file when the run fails, and keeps the previous one when the run was cut short', async () => {
    const network = fakeNetwork();
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
    const failure = new Error('the comparison crashed');
    await expect(
      recorder.withRun(RUN, async () => {
        await (await call(recorder.fetch, 'kept')).text();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await readFileOf(recorder)).exchanges).toHaveLength(1);

    const controller = new AbortController();
    await recorder.withRun({ ...RUN, signal: controller.signal }, async () => {
      await (await call(recorder.fetch, 'one')).text();
      await (await call(recorder.fetch, 'two')).text();
      controller.abort(new Error('interrupted'));
    });
    const file = await readFileOf(recorder);
    expect(file.exchanges).toHaveLength(1);
  });

  it('keeps the previous file when a request is aborted by the caller', async () => {
    await record(['before']);
    // Never answers: only the caller's abort ends the request.
    const hanging: typeof globalThis.fetch = (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: hanging });
    const controller = new AbortController();
    const error = await caught(
      recorder.withRun(RUN, async () => {
        const pending = recorder.fetch('https://api.openai.com/v1/responses', {
          method: 'POST',
          body: body('after'),
          signal: controller.signal,
        });
        controller.abort(new Error('interrupted'));
        return pending;
      }),
    );
    expect((error as Error).message).toBe('interrupted');
    const file = await readFileOf(recorder);
    expect(file.exchanges).toHaveLength(1);
    expect(file.exchanges[0]?.response.body).toMatchObject({ output_text: 'answer to before' });
  });

  it('refuses two runs recording into the same file at once', async () => {
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: fakeNetwork().fetch });
    let release: () => void = () => undefined;
    const first = recorder.withRun(RUN, () => new Promise<void>((resolve) => (release = resolve)));
    const error = await caught(recorder.withRun(RUN, async () => undefined));
    release();
    await first;
    expect(error).toBeInstanceOf(NaoError);
    expect((error as NaoError).code).toBe('RECORDING_DUPLICATE_RUN');
  });

  it('reports a recording it cannot write', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, '');
    const recorder = createRecorder({ recordingsDir: blocker, mode: 'record', fetch: fakeNetwork().fetch });
    const error = await caught(recorder.withRun(RUN, async () => (await call(recorder.fetch, 'q')).text()));
    expect((error as NaoError).code).toBe('RECORDING_WRITE_FAILED');
    expect((error as Error).message).toContain('attempt-1.json');
  });
});

describe('replay mode', () => {
  it('answers from the recording without the network, whatever the host, key order or stream flag', async () => {
    await record(['first', 'second']);
    const { recorder, network } = replayer();
    expect(recorder.isReplaying).toBe(true);
    const answers = await recorder.withRun(RUN, async () => [
      await (await call(recorder.fetch, 'first', { host: 'http://127.0.0.1:9' })).json(),
      await (await call(recorder.fetch, 'second', { extra: { stream: false, store: true } })).json(),
    ]);
    expect(answers.map((answer) => (answer as { output_text: string }).output_text)).toEqual([
      'answer to first',
      'answer to second',
    ]);
    expect(network.calls).toHaveLength(0);
  });

  it.each([
    [
      'no file',
      [],
      'first',
      1,
      /test "total_revenue" on openai:gpt-4\.1, attempt 1: .*attempt-1\.json does not exist/,
    ],
    [
      'fewer steps than the run makes',
      ['first'],
      'second',
      2,
      /No recording of step 2 .*holds 1 model call\(s\)/,
    ],
  ])(
    'a call without recording (%s) is a MissingRecordingError',
    async (_label, recorded, extraCall, step, message) => {
      if (recorded.length > 0) await record(recorded);
      const { recorder } = replayer();
      let inRun: Error | undefined;
      const error = await caught(
        recorder.withRun(RUN, async () => {
          try {
            for (const prompt of recorded) await call(recorder.fetch, prompt);
            await call(recorder.fetch, extraCall);
          } finally {
            inRun = recorder.currentRunError();
          }
        }),
      );
      expect(error).toBeInstanceOf(MissingRecordingError);
      expect(inRun).toBe(error);
      expect(error).toMatchObject({
        code: 'RECORDING_MISSING',
        test: 'total_revenue',
        model: 'openai:gpt-4.1',
        attempt: 1,
        step,
      });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain('Re-record with `nao test --record`');
    },
  );

  it('a changed request at the same step is a StaleRecordingError saying what changed', async () => {
    await record(['first', 'second']);
    const { recorder } = replayer();
    const error = await caught(
      recorder.withRun(RUN, async () => {
        await call(recorder.fetch, 'first');
        await call(recorder.fetch, 'second, reworded');
      }),
    );
    expect(error).toBeInstanceOf(StaleRecordingError);
    expect(error).toMatchObject({ code: 'RECORDING_STALE', step: 2, changes: ['the prompt differs'] });
    expect((error as Error).message).toBe(
      `The recording of test "total_revenue" on openai:gpt-4.1, attempt 1 is stale at step 2: the prompt differs. ` +
        `Re-record with \`nao test --record\` (${recorder.filePath(RUN)}).`,
    );
  });

  it('shows file paths relative to the project when told', async () => {
    const recorder = createRecorder({
      recordingsDir: path.join(dir, 'tests', 'recordings'),
      mode: 'replay',
      displayDir: dir,
    });
    const error = await caught(recorder.withRun(RUN, () => call(recorder.fetch, 'q')));
    expect((error as Error).message).toContain(
      ' tests/recordings/openai__gpt-4.1/total_revenue/attempt-1.json does not exist',
    );
  });

  it('a recording of another model or attempt is refused', async () => {
    await record(['q']);
    const { recorder } = replayer();
    const target = recorder.filePath({ ...RUN, attempt: 2 });
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, await readFile(recorder.filePath(RUN), 'utf8'));
    const error = await caught(recorder.withRun({ ...RUN, attempt: 2 }, () => call(recorder.fetch, 'q')));
    expect((error as NaoError).code).toBe('RECORDING_INVALID');
    expect((error as Error).message).toContain(
      'it holds openai:gpt-4.1 attempt 1, not openai:gpt-4.1 attempt 2',
    );
  });

  it('under the SDK: not retried, and the typed error stays reachable', async () => {
    const { recorder } = replayer();
    const resolved = openaiModel('https://api.openai.com/v1', recorder.fetch);
    const result = await recorder.withRun(RUN, async () => {
      const thrown = await caught(
        generateText({ model: resolved.model, prompt: 'q', ...resolved.callSettings }),
      );
      return { thrown: resolved.explainError(thrown), recordingError: recorder.currentRunError() };
    });
    expect(result.recordingError).toBeInstanceOf(MissingRecordingError);
    // Retries would have wrapped it in the SDK's RetryError.
    expect(result.thrown).toBe(result.recordingError);
    expect((result.thrown as Error).message).toContain('No recording of step 1');
  });
});

describe('runs', () => {
  it('a model call outside any run is refused in both modes', async () => {
    for (const mode of ['record', 'replay'] as const) {
      const recorder = createRecorder({ recordingsDir: dir, mode, fetch: fakeNetwork().fetch });
      const error = await caught(call(recorder.fetch, 'q'));
      expect((error as NaoError).code).toBe('RECORDING_NO_RUN');
    }
  });

  it.each([
    [{ ...RUN, test: ' ' }, /test must be a non-empty name/],
    [{ ...RUN, model: 'gpt-4.1' }, /model must be provider:model_id, got "gpt-4.1"/],
    [{ ...RUN, attempt: 0 }, /attempt must be an integer >= 1, got 0/],
    [{ ...RUN, attempt: 1.5 }, /attempt must be an integer >= 1, got 1.5/],
  ])('refuses an invalid run %#', async (run, message) => {
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record' });
    const error = await caught(recorder.withRun(run, async () => undefined));
    expect((error as NaoError).code).toBe('RECORDING_INVALID_RUN');
    expect((error as Error).message).toMatch(message);
  });

  it('gives each run its own deterministic query ids, only inside the run', async () => {
    const recorder = createRecorder({ recordingsDir: dir, mode: 'replay' });
    expect(recorder.currentQueryIdGenerator()).toBeUndefined();
    const draw = (run: RecordedRun) =>
      recorder.withRun(run, async () => {
        const next = recorder.currentQueryIdGenerator()!;
        return [next(), next()];
      });
    const first = await draw(RUN);
    expect(first[0]).toMatch(/^query_[0-9a-f]{8}$/);
    expect(first[0]).not.toBe(first[1]);
    expect(await draw(RUN)).toEqual(first);
    expect(await draw({ ...RUN, attempt: 2 })).not.toEqual(first);
    expect(await draw({ ...RUN, model: 'anthropic:claude-sonnet-4-5' })).not.toEqual(first);
    // The id follows the test file: renaming the test keeps its recordings valid.
    expect(await draw({ ...RUN, test: 'renamed' })).toEqual(first);
    const fromFormula = deterministicQueryIds({
      test: 'total_revenue.yml',
      model: 'openai:gpt-4.1',
      attempt: 1,
    });
    expect([fromFormula(), fromFormula()]).toEqual(first);
  });

  it('keeps concurrent runs apart, each with its own steps', async () => {
    const network = fakeNetwork(async (prompt) => {
      // Answers arrive out of order, so the runs' calls interleave.
      await new Promise((resolve) => setTimeout(resolve, prompt.endsWith('1') ? 15 : 1));
      return jsonReply(prompt);
    });
    const recorder = createRecorder({ recordingsDir: dir, mode: 'record', fetch: network.fetch });
    const tests = ['a', 'b', 'c', 'd'];
    const runOf = (test: string): RecordedRun => ({ test, model: 'openai:gpt-4.1', attempt: 1 });
    const conversation = (test: string) => [`${test} step 1`, `${test} step 2`, `${test} step 3`];
    await Promise.all(
      tests.map((test) =>
        recorder.withRun(runOf(test), async () => {
          for (const prompt of conversation(test)) await (await call(recorder.fetch, prompt)).text();
        }),
      ),
    );
    for (const test of tests) {
      const file = await readFileOf(recorder, runOf(test));
      expect(file.test).toBe(test);
      expect(
        file.exchanges.map((exchange) => (exchange.response.body as { output_text: string }).output_text),
      ).toEqual(conversation(test).map((prompt) => `answer to ${prompt}`));
    }

    const { recorder: replaying } = replayer();
    const replayed = await Promise.all(
      tests.map((test) =>
        replaying.withRun(runOf(test), async () => {
          const answers: string[] = [];
          for (const prompt of conversation(test)) {
            answers.push(
              ((await (await call(replaying.fetch, prompt)).json()) as { output_text: string }).output_text,
            );
          }
          return answers;
        }),
      ),
    );
    expect(replayed).toEqual(tests.map((test) => conversation(test).map((prompt) => `answer to ${prompt}`)));
    expect(await readdir(path.join(dir, 'openai__gpt-4.1'))).toEqual(tests);
  });
});
