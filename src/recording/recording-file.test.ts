import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatRecording,
  modelFolderName,
  parseRecording,
  RECORDING_FORMAT,
  type RecordingFile,
  RecordingFileError,
  readRecording,
  recordingFilePath,
  writeRecording,
} from './recording-file.js';

const HASH = 'a'.repeat(64);

function recording(overrides: Partial<RecordingFile> = {}): RecordingFile {
  return {
    format: RECORDING_FORMAT,
    test: 'total_revenue',
    model: 'openai:gpt-4.1',
    attempt: 1,
    recorded_at: '2025-02-09T14:30:22.000Z',
    exchanges: [
      {
        step: 1,
        request: {
          hash: HASH,
          summary: { model: 'gpt-4.1', system: null, messages: [], tools: null, response_format: null },
          path: '/v1/responses',
        },
        response: { status: 200, content_type: 'application/json', body: { z: 1, a: { d: 2, c: 3 } } },
      },
    ],
    ...overrides,
  };
}

describe('recordingFilePath', () => {
  it.each([
    ['total_revenue.yml', 'openai:gpt-4.1', 1, 'openai__gpt-4.1/total_revenue/attempt-1.json'],
    [
      'finance/payment_methods.yaml',
      'openai:gpt-4.1',
      3,
      'openai__gpt-4.1/finance/payment_methods/attempt-3.json',
    ],
    [
      'x.YML',
      'openrouter:meta-llama/llama-3.3-70b',
      1,
      'openrouter__meta-llama__llama-3.3-70b/x/attempt-1.json',
    ],
    ['a test name', 'ollama:qwen3:8b', 2, 'ollama__qwen3__8b/a test name/attempt-2.json'],
    ['../../escape.yml', 'openai:gpt-4.1', 1, 'openai__gpt-4.1/__/__/escape/attempt-1.json'],
    ['what?<*>.yml', 'openai:gpt-4.1', 1, 'openai__gpt-4.1/what____/attempt-1.json'],
    ['trailing dot.', 'openai:gpt-4.1', 1, 'openai__gpt-4.1/trailing dot_/attempt-1.json'],
    ['', 'openai:gpt-4.1', 1, 'openai__gpt-4.1/_/attempt-1.json'],
  ])('%s on %s, attempt %i → %s', (test, model, attempt, expected) => {
    const file = recordingFilePath({ recordingsDir: '/project/tests/recordings', model, test, attempt });
    expect(path.relative('/project/tests/recordings', file).split(path.sep).join('/')).toBe(expected);
  });

  it('never leaves the recordings folder', () => {
    const file = recordingFilePath({
      recordingsDir: '/r',
      model: '..:..',
      test: '../../../etc/passwd',
      attempt: 1,
    });
    expect(path.relative('/r', file).split(path.sep)[0]).not.toBe('..');
    expect(path.resolve(file).startsWith(`${path.resolve('/r')}${path.sep}`)).toBe(true);
  });

  it('keeps model folders apart', () => {
    expect(modelFolderName('openai:gpt-4.1')).not.toBe(modelFolderName('openai:gpt-4.1-mini'));
  });
});

describe('formatRecording / parseRecording', () => {
  it('round-trips, with the top-level order fixed and body keys sorted', () => {
    const text = formatRecording(recording({ note: 'scripted' }));
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'format',
      'test',
      'model',
      'attempt',
      'recorded_at',
      'note',
      'exchanges',
    ]);
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
    expect(text.indexOf('"c"')).toBeLessThan(text.indexOf('"d"'));
    const parsed = parseRecording({ text, file: 'x.json' });
    expect(parsed.exchanges[0]?.response.body).toEqual({ a: { c: 3, d: 2 }, z: 1 });
    expect(parsed.note).toBe('scripted');
  });

  it('gives the same text for the same recording', () => {
    expect(formatRecording(recording())).toBe(formatRecording(recording()));
  });

  it.each([
    ['invalid JSON', '{"format":', /invalid JSON/],
    [
      'another format version',
      JSON.stringify({ ...recording(), format: 'nao-recording/2' }),
      /format "nao-recording\/2", this nao reads "nao-recording\/1"/,
    ],
    ['not a recording', JSON.stringify({ hello: 'world' }), /format/],
    ['a missing field', JSON.stringify({ ...recording(), attempt: undefined }), /attempt/],
    [
      'a bad hash',
      JSON.stringify(
        recording({
          exchanges: [
            { ...recording().exchanges[0]!, request: { ...recording().exchanges[0]!.request, hash: 'abc' } },
          ],
        }),
      ),
      /exchanges\.0\.request\.hash: must be 64 lowercase hex characters/,
    ],
    [
      'a step recorded twice',
      JSON.stringify(recording({ exchanges: [recording().exchanges[0]!, recording().exchanges[0]!] })),
      /step 1 is recorded twice/,
    ],
  ])('rejects %s with a message naming the file and what to do', (_label, text, problem) => {
    let caught: unknown;
    try {
      parseRecording({ text, file: 'tests/recordings/x/attempt-1.json' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RecordingFileError);
    const error = caught as RecordingFileError;
    expect(error.code).toBe('RECORDING_INVALID');
    expect(error.message).toMatch(problem);
    expect(error.message).toContain('tests/recordings/x/attempt-1.json');
    expect(error.message).toContain('re-record with `nao test --record`');
  });
});

describe('readRecording / writeRecording', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nao-recording-file-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes into new folders, replaces a previous file whole and leaves no temporary file', async () => {
    const file = path.join(dir, 'openai__gpt-4.1', 'finance', 'x', 'attempt-1.json');
    await writeRecording(file, recording({ test: 'first' }));
    await writeRecording(file, recording({ test: 'second' }));
    expect((await readRecording(file))?.test).toBe('second');
    expect(await readdir(path.dirname(file))).toEqual(['attempt-1.json']);
    expect(await readFile(file, 'utf8')).toBe(formatRecording(recording({ test: 'second' })));
  });

  it('reads a missing file as null and a broken one as an error', async () => {
    expect(await readRecording(path.join(dir, 'nothing.json'))).toBeNull();
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{');
    await expect(readRecording(broken, 'shown/broken.json')).rejects.toThrow(/shown\/broken\.json/);
  });
});
