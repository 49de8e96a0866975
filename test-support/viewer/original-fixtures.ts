/**
 * Results files in the original nao's layout for the viewer's recount tests (#34 item 4): the
 * committed one-model file of test-support/original-nao/results, and the same runs answered
 * by a second model, summarised as the original's `save_results` does (`passed` counts every
 * run flagged passed, `no verification` ones included).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../cli/example-project.js';

export const ORIGINAL_RESULTS_DIR = path.join(REPO_ROOT, 'test-support', 'original-nao', 'results');

/** Six runs of openai:gpt-4.1: the file says 4 of 6 passed (66.7%), nao counts 3 (50.0%). */
export const ORIGINAL_ONE_MODEL = 'results_20260212_100411.json';

/** The second model of `originalTwoModels`. */
export const ORIGINAL_SECOND_MODEL = 'anthropic:claude-sonnet-4-5';

interface OriginalRun {
  name: string | number;
  model: string;
  passed: boolean;
  message: string;
  tokens: number | null;
  cost: number | null;
  duration_ms: number | null;
  tool_call_count: number | null;
  [key: string]: unknown;
}

export interface OriginalFile {
  timestamp: string;
  results: OriginalRun[];
  summary: Record<string, number>;
}

export async function readOriginal(name: string): Promise<OriginalFile> {
  return JSON.parse(await readFile(path.join(ORIGINAL_RESULTS_DIR, name), 'utf8')) as OriginalFile;
}

/** The `summary` the original's save_results writes for these runs. */
function originalSummary(results: readonly OriginalRun[]): Record<string, number> {
  const sum = (pick: (run: OriginalRun) => number | null) =>
    results.reduce((acc, run) => acc + (pick(run) ?? 0), 0);
  const duration = sum((run) => run.duration_ms);
  const tools = sum((run) => run.tool_call_count);
  return {
    total: results.length,
    passed: results.filter((run) => run.passed).length,
    failed: results.filter((run) => !run.passed).length,
    total_tokens: sum((run) => run.tokens),
    total_cost: sum((run) => run.cost),
    total_duration_ms: duration,
    total_duration_s: Math.round(duration / 10) / 100,
    avg_duration_ms: results.length === 0 ? 0 : Math.round(duration / results.length),
    total_tool_calls: tools,
    avg_tool_calls: results.length === 0 ? 0 : Math.round((tools * 10) / results.length) / 10,
  };
}

/**
 * The one-model file's runs plus the same runs by ORIGINAL_SECOND_MODEL, which also gets
 * `orders_by_status` right. The file says gpt-4.1 4/6 (66.7%) and the second model 5/6
 * (83.3%), 9/12 in all; nao counts 3/6 (50.0%), 4/6 (66.7%) and 7/12 (58.3%).
 */
export async function originalTwoModels(timestamp: string): Promise<OriginalFile> {
  const one = await readOriginal(ORIGINAL_ONE_MODEL);
  const second = one.results.map((run) =>
    run.name === 'orders_by_status'
      ? { ...run, model: ORIGINAL_SECOND_MODEL, passed: true, message: 'match', details: null }
      : { ...run, model: ORIGINAL_SECOND_MODEL },
  );
  const results = [...one.results, ...second];
  return { timestamp, results, summary: originalSummary(results) };
}
