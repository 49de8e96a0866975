/**
 * A results file of the original nao's `nao test -m openai:gpt-4.1 -m anthropic:claude-sonnet-4-5`,
 * in the layout its `save_results` writes (cli/nao_core/commands/test/runner.py): the runs of
 * results_20260212_100411.json for the first model, and for the second the same tests with
 * orders_by_status also answered without verification, so the two models' own numbers differ
 * from nao's by one and two runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ORIGINAL_MODELS = ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'] as const;

interface OriginalRun {
  name: string;
  model: string;
  passed: boolean;
  message: string;
  tokens: number | null;
  cost: number | null;
  duration_ms: number | null;
  tool_call_count: number | null;
  [key: string]: unknown;
}

export function originalTwoModelFile(): { timestamp: string; results: OriginalRun[]; summary: object } {
  const source = JSON.parse(
    readFileSync(path.join(import.meta.dirname, 'results', 'results_20260212_100411.json'), 'utf8'),
  ) as { timestamp: string; results: OriginalRun[] };
  const unverified = source.results.find((run) => run.message === 'no verification')!;
  const second = source.results.map((run) =>
    run.name === 'orders_by_status'
      ? { ...structuredClone(unverified), name: run.name, model: ORIGINAL_MODELS[1] }
      : { ...structuredClone(run), model: ORIGINAL_MODELS[1] },
  );
  const results = [...source.results, ...second];
  // The original's summary: every run with `passed` true counts as passed, "no verification" included.
  const totalDurationMs = results.reduce((sum, run) => sum + (run.duration_ms ?? 0), 0);
  const totalToolCalls = results.reduce((sum, run) => sum + (run.tool_call_count ?? 0), 0);
  return {
    timestamp: source.timestamp,
    results,
    summary: {
      total: results.length,
      passed: results.filter((run) => run.passed).length,
      failed: results.filter((run) => !run.passed).length,
      total_tokens: results.reduce((sum, run) => sum + (run.tokens ?? 0), 0),
      total_cost: results.reduce((sum, run) => sum + (run.cost ?? 0), 0),
      total_duration_ms: totalDurationMs,
      total_duration_s: Math.round(totalDurationMs / 10) / 100,
      total_tool_calls: totalToolCalls,
      avg_duration_ms: Math.round(totalDurationMs / results.length),
      avg_tool_calls: Math.round((totalToolCalls / results.length) * 10) / 10,
    },
  };
}
