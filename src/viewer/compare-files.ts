import {
  type ComparedPair,
  compareRunFiles,
  groupByPair,
  pairKey,
  type ResultsFile,
  statusOf,
} from '../results/index.js';
import type { CompareResponse, PairCategory, RecountedModel, ViewerComparedPair } from './api-types.js';
import { recountedModel } from './recount-marks.js';

/**
 * Where each (test, model) pair's representative run sits in `results`: the first attempt
 * with the pair's status, so the linked detail explains the outcome the comparison shows.
 */
function runLocator(file: ResultsFile): (pair: ComparedPair, side: 'before' | 'after') => number | null {
  const attempts = groupByPair(file.results.map(({ name, model }, index) => ({ name, model, index })));
  return (pair, side) => {
    const outcome = pair[side];
    const indexes = attempts.get(pairKey(pair));
    if (outcome === null || indexes === undefined) return null;
    const matching = indexes.find(({ index }) => statusOf(file.results[index]!) === outcome.status);
    return (matching ?? indexes[0])?.index ?? null;
  };
}

/**
 * `compareRunFiles` of two files (the very function `nao test diff` prints, so the per-model
 * change, its interval and verdict are the CLI's), each pair carrying the runs to link to on
 * both sides, and the per-model rates nao recounted from an original file on either side.
 */
export function compareForViewer(options: {
  before: { name: string; file: ResultsFile };
  after: { name: string; file: ResultsFile };
}): CompareResponse {
  const { before, after } = options;
  const comparison = compareRunFiles({ before: before.file, after: after.file });
  const locateBefore = runLocator(before.file);
  const locateAfter = runLocator(after.file);
  const withRuns = (pairs: ComparedPair[]): ViewerComparedPair[] =>
    pairs.map((pair) => ({
      ...pair,
      beforeRun: locateBefore(pair, 'before'),
      afterRun: locateAfter(pair, 'after'),
    }));
  const categories: PairCategory[] = ['regressions', 'fixes', 'unchanged', 'added', 'removed', 'notRun'];
  const lists = Object.fromEntries(categories.map((category) => [category, withRuns(comparison[category])]));
  const recounted = (file: ResultsFile, side: 'before' | 'after'): RecountedModel[] =>
    comparison.models.flatMap((entry) => {
      const summary = entry[side];
      const marked = summary === null ? null : recountedModel(file, entry.model, summary);
      return marked === null ? [] : [marked];
    });
  return {
    ...comparison,
    beforeFile: before.name,
    afterFile: after.name,
    recounted: { before: recounted(before.file, 'before'), after: recounted(after.file, 'after') },
    ...(lists as Record<PairCategory, ViewerComparedPair[]>),
  };
}
