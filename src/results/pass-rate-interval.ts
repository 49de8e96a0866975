/**
 * The 95% interval of a pass rate (issue #33): the tests are a sample of the questions the
 * team cares about, so 24 of 40 is "60%, somewhere between 44.6% and 73.7%". Wilson's interval
 * when each test ran once; with repeats (or `test.stats.cluster: folder`) the runs of one test
 * (or folder) are related, so the interval is clustered on them.
 */
import { clusteredMean, wilsonInterval } from '../stats/index.js';
import type { PassRateInterval, RunResult, StatsCluster } from './results-file.js';
import { statusOf } from './run-status.js';

const percent = (value: number) => Math.round(value * 1000) / 10;

/** What makes two runs related: the same test (its attempts, its models) or the same folder. */
export function clusterKey(result: Pick<RunResult, 'name' | 'file'>, cluster: StatsCluster): string {
  if (cluster === 'folder') {
    const slash = result.file.lastIndexOf('/');
    return slash < 0 ? '.' : result.file.slice(0, slash);
  }
  return result.name;
}

/** The interval of the pass rate of the runs that ran (skipped ones never count; unverified is not a pass). */
export function passRateInterval(
  results: readonly RunResult[],
  options: { cluster?: StatsCluster } = {},
): PassRateInterval {
  const cluster = options.cluster ?? 'test';
  const ran = results.filter((result) => statusOf(result) !== 'skipped');
  const runs = ran.map((result) => ({
    score: statusOf(result) === 'passed' ? 1 : 0,
    cluster: clusterKey(result, cluster),
  }));
  const independent = new Set(runs.map((run) => run.cluster)).size === runs.length;
  if (independent) {
    const passed = runs.filter((run) => run.score === 1).length;
    const [low, high] = wilsonInterval({ successes: passed, trials: runs.length });
    return { pass_rate_ci95: [percent(low), percent(high)], pass_rate_ci_method: 'wilson' };
  }
  const [low, high] = clusteredMean(runs).ci95;
  return { pass_rate_ci95: [percent(low), percent(high)], pass_rate_ci_method: 'clustered' };
}

/** A summary read from a file written before intervals existed gets them computed from its runs. */
export function hasPassRateInterval(value: object): boolean {
  const ci = (value as Partial<PassRateInterval>).pass_rate_ci95;
  return Array.isArray(ci) && ci.length === 2 && ci.every((bound) => typeof bound === 'number');
}
