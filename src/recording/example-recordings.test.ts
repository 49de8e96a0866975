/**
 * The bundled example ships recordings (`example/tests/recordings/`) so a newcomer can see nao
 * work with `nao test --replay` before pasting a key. They must replay against the example as
 * committed: its own config (no base_url, no key), no server, no network.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR } from '../../test-support/cli/example-project.js';
import { ensureExampleWarehouse } from '../../test-support/example-warehouse/index.js';
import { runRecordedSuite } from '../../test-support/recording/recorded-suite.js';
import {
  EXAMPLE_MODEL,
  EXAMPLE_NOTE,
  MISTAKEN_TEST,
} from '../../tools/recordings/example-recording-script.js';
import type { RunResult } from '../results/index.js';
import { discoverTests } from '../test-files/index.js';
import { createRecorder } from './recorder.js';
import { parseRecording } from './recording-file.js';

const RECORDINGS = path.join(EXAMPLE_DIR, 'tests', 'recordings', 'openai__gpt-4.1');
const REGENERATE =
  'if the agent, its prompts or the example changed on purpose, regenerate them: npx tsx src/recording/make-example-recordings.ts';

const withoutExtension = (relativePath: string) => relativePath.replace(/\.ya?ml$/i, '');

let dir: string;
let results: RunResult[];
let networkCalls = 0;

beforeAll(async () => {
  await ensureExampleWarehouse({ path: path.join(EXAMPLE_DIR, 'warehouse.duckdb') });
  dir = await mkdtemp(path.join(tmpdir(), 'nao-example-replay-'));
  await cp(EXAMPLE_DIR, dir, {
    recursive: true,
    filter: (source) => !source.includes(`${path.sep}outputs`) && !source.endsWith('.wal'),
  });
  const recorder = createRecorder({
    recordingsDir: path.join(dir, 'tests', 'recordings'),
    mode: 'replay',
    fetch: async () => {
      networkCalls++;
      throw new Error('replay reached the network');
    },
    displayDir: dir,
  });
  // No OPENAI_API_KEY anywhere: the environment is empty.
  results = await runRecordedSuite({ projectDir: dir, recorder, env: {}, concurrency: 4 });
}, 120_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the example recordings', () => {
  it('replay with no key and no server: every test passes except the deliberate mismatch', () => {
    expect(networkCalls).toBe(0);
    expect(results.length).toBeGreaterThan(1);
    for (const result of results) {
      expect(result.model).toBe(EXAMPLE_MODEL);
      expect(result.details.replayed).toBe(true);
      expect(result.status, `${result.name}: ${result.message} (${REGENERATE})`).toBe(
        result.name === MISTAKEN_TEST ? 'failed' : 'passed',
      );
      expect(result.tokens).toBeGreaterThan(0);
      expect(result.cost).toBeGreaterThan(0);
    }
  });

  it('show the mismatch with a values diff', () => {
    const mismatch = results.find((result) => result.name === MISTAKEN_TEST)!;
    expect(mismatch.message).toContain('values differ');
    expect(mismatch.details.actual_data).toEqual([{ revenue: '44045.70' }]);
    expect(mismatch.details.expected_data).toEqual([{ revenue: '41005.25' }]);
    expect(mismatch.details.diff?.text).toContain('44045.70');
    expect(mismatch.details.diff?.text).toContain('41005.25');
  });

  it('cover every example test, and nothing else', async () => {
    const { tests } = await discoverTests({ testsDir: path.join(EXAMPLE_DIR, 'tests') });
    const expected = tests.map((test) => `${withoutExtension(test.relativePath)}/attempt-1.json`).sort();
    const present = (await readdir(RECORDINGS, { recursive: true }))
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => file.endsWith('.json'))
      .sort();
    expect(present, REGENERATE).toEqual(expected);
  });

  it('say they were scripted, and hold no key, header or local address', async () => {
    for (const test of (await discoverTests({ testsDir: path.join(EXAMPLE_DIR, 'tests') })).tests) {
      const file = path.join(RECORDINGS, `${withoutExtension(test.relativePath)}/attempt-1.json`);
      const text = await readFile(file, 'utf8');
      const recording = parseRecording({ text, file });
      expect(recording).toMatchObject({
        test: test.name,
        model: EXAMPLE_MODEL,
        attempt: 1,
        note: EXAMPLE_NOTE,
      });
      expect(text).not.toMatch(/sk-|authorization|bearer|127\.0\.0\.1|localhost/i);
    }
  });
});
