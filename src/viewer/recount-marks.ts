/**
 * Where the viewer shows a pass rate that nao recounted from a file of the original nao
 * (issue #34): the original counts a run without verification as passed, nao never does, so
 * 50.0% in the file is 25.0% here. The number is never changed silently: it carries a mark
 * and what the file says, as `nao test diff` marks it with `*`.
 */
import { passRate, type ResultsFile } from '../results/index.js';
import type { FileSays, RecountedModel } from './api-types.js';

/** The counts of one model (or of the whole file) as nao made them. */
interface Counted {
  total: number;
  unverified: number;
}

function says(passed: number, total: number): FileSays {
  return { passed, total, pass_rate: passRate(passed, total) };
}

/** What the file's own summary says, when nao counts its passes differently; null otherwise. */
export function fileSaysOverall(file: ResultsFile): FileSays | null {
  const recount = file.recounted;
  return recount === undefined ? null : says(recount.written_passed, recount.written_total);
}

/**
 * A model's numbers in a recounted file: recounted when the model has unverified runs (the
 * ones the file counted as passed). The file's own per-model count is what the reader kept of
 * the file's runs (`recounted.by_model`), used only where it covers the same runs as nao's row;
 * otherwise the mark stands without a number rather than with a guessed one.
 */
export function recountedModel(file: ResultsFile, model: string, counted: Counted): RecountedModel | null {
  const recount = file.recounted;
  if (recount === undefined || counted.unverified === 0) return null;
  const written = recount.by_model?.find((entry) => entry.model === model);
  return {
    model,
    file_says:
      written !== undefined && written.written_total === counted.total
        ? says(written.written_passed, written.written_total)
        : null,
  };
}

/** Every model of the file whose pass rate nao recounted, in the file's by_model order. */
export function recountedModels(file: ResultsFile): RecountedModel[] {
  return file.by_model
    .map((entry) => recountedModel(file, entry.model, entry))
    .filter((entry): entry is RecountedModel => entry !== null);
}
