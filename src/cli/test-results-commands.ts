import path from 'node:path';
import { UsageError } from '../errors/index.js';
import { formatPercentWithInterval } from '../number-format/format-values.js';
import {
  compareRunFiles,
  ensureByModel,
  listResultsFiles,
  partialReasons,
  planSuite,
  type ResultsFile,
  readResultsFile,
  selectionKey,
  selectionText,
  significantDrops,
} from '../results/index.js';
import { formatRunComparison, formatSummary } from '../results/reporters/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { positiveNumberFlag } from './flag-values.js';
import type { CliIO } from './io.js';
import { loadProjectConfig } from './load-project.js';

/** Result files of the project, oldest first; an empty one (an interrupted write) is named on stderr and skipped. */
async function resultFiles(io: CliIO): Promise<{ outputsDir: string; files: string[] }> {
  const config = await loadProjectConfig(io);
  const outputsDir = path.join(config.projectDir, 'tests', 'outputs');
  const files = await listResultsFiles(outputsDir, {
    onEmpty: (file) =>
      io.stderr.write(
        `Note: skipping ${path.relative(io.cwd, file) || file}: it is empty (a run was interrupted while writing it); delete it.\n`,
      ),
  });
  return { outputsDir, files };
}

function noResults(outputsDir: string, needed: number): UsageError {
  return new UsageError({
    code: 'NO_RESULTS',
    message: `${needed === 1 ? 'No results file' : `Fewer than ${needed} results files`} in ${outputsDir}. Run \`nao test\` first.`,
  });
}

function resolveFile(io: CliIO, file: string): string {
  return path.resolve(io.cwd, file);
}

/** `nao test summary [file]`: the tables of a saved results file (default: the latest). */
export const printSummary: CommandAction<CliDependencies> = async ({ io, args, flags }) => {
  const file = args[0];
  let target: string;
  if (file !== undefined) target = resolveFile(io, file);
  else {
    const { outputsDir, files } = await resultFiles(io);
    if (files.length === 0) throw noResults(outputsDir, 1);
    target = files.at(-1)!;
  }
  const results = ensureByModel(await readResultsFile(target));
  // Never a different pass rate without saying why (a file of the original nao).
  if (results.recounted !== undefined) io.stderr.write(`Note: ${results.recounted.reason}\n`);
  if (flags.json === true) {
    const { summary, by_model, repeats, timestamp } = results;
    const comparisons = results.comparisons ?? [];
    io.stdout.write(
      `${JSON.stringify({ file: target, timestamp, summary, by_model, comparisons, repeats }, null, 2)}\n`,
    );
  } else {
    io.stdout.write(
      `${formatSummary({ file: results, path: path.relative(io.cwd, target) || target, width: io.stdout.columns ?? 120 })}\n`,
    );
  }
  return EXIT.ok;
};

const FAIL_ON = ['regression', 'significant'] as const;

/** `--fail-on`: `regression` (any pair that stopped passing) or `significant` (a drop beyond noise). */
function failOnFlag(value: unknown): (typeof FAIL_ON)[number] {
  if (value === undefined) return 'regression';
  const found = FAIL_ON.find((choice) => choice === value);
  if (found !== undefined) return found;
  throw new UsageError({
    code: 'INVALID_FLAG',
    message: `--fail-on must be ${FAIL_ON.join(' or ')}, got "${String(value)}".`,
  });
}

/** `nao test diff [before] [after]`: regressions and fixes between two results files. */
export const diffResults: CommandAction<CliDependencies> = async ({ io, args, flags }) => {
  const failOn = failOnFlag(flags.failOn);
  const [before, after] = args;
  let paths: [string, string];
  if (before !== undefined && after !== undefined) paths = [resolveFile(io, before), resolveFile(io, after)];
  else if (before !== undefined) {
    throw new UsageError({
      code: 'DIFF_NEEDS_TWO_FILES',
      message: 'nao test diff takes two files (before and after), or --last for the two latest.',
    });
  } else {
    const { outputsDir, files } = await resultFiles(io);
    if (files.length < 2) throw noResults(outputsDir, 2);
    const latest = await latestTwoCompleteRuns(outputsDir, files);
    paths = [latest.before, latest.after];
    io.stderr.write(`${latest.note}\n`);
  }
  const [beforeFile, afterFile] = await Promise.all(paths.map((file) => readResultsFile(file)));
  // Pairs are matched by (test, model): a mock model never meets a real one, but a replayed
  // run does meet the same model's live run, so say when the two sides were answered differently.
  for (const note of answerSourceNotes(beforeFile!, afterFile!)) io.stderr.write(`Note: ${note}\n`);
  const comparison = compareRunFiles({
    before: beforeFile!,
    after: afterFile!,
    ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
    ...(typeof flags.test === 'string' ? { test: flags.test } : {}),
  });
  io.stdout.write(
    `${formatRunComparison(comparison, {
      beforeLabel: path.relative(io.cwd, paths[0]) || paths[0],
      afterLabel: path.relative(io.cwd, paths[1]) || paths[1],
      recounted: { before: beforeFile!.recounted, after: afterFile!.recounted },
    })}\n`,
  );
  if (flags.fail === false) return EXIT.ok;
  // A single flipped test is a regression, but on 40 tests rarely a real drop: `significant`
  // fails only when a model's paired change is beyond noise.
  const failed =
    failOn === 'significant' ? significantDrops(comparison).length > 0 : comparison.regressions.length > 0;
  return failed ? EXIT.failed : EXIT.ok;
};

/**
 * `nao test diff` without files: the latest two complete runs of one selection (`-s`, or every
 * test): the newest complete run that has an earlier complete run of its selection, and that
 * run. Shards, reruns of failures, interrupted and stopped runs are passed over, so a slice is
 * never compared with a whole suite.
 */
async function latestTwoCompleteRuns(
  outputsDir: string,
  files: readonly string[],
): Promise<{ before: string; after: string; note: string }> {
  const complete: { path: string; key: string; text: string }[] = [];
  let partial = 0;
  for (const candidate of [...files].reverse()) {
    let file: ResultsFile;
    try {
      file = await readResultsFile(candidate);
    } catch {
      partial++;
      continue;
    }
    if (partialReasons(file).length > 0) partial++;
    else complete.push({ path: candidate, key: selectionKey(file), text: selectionText(file) });
  }
  for (const [index, after] of complete.entries()) {
    const before = complete.slice(index + 1).find((run) => run.key === after.key);
    if (before === undefined) continue;
    const passed = [
      ...(partial === 0 ? [] : [`${partial} partial or unreadable`]),
      ...(index === 0 ? [] : [`${index} newer run(s) of another selection`]),
    ];
    return {
      before: before.path,
      after: after.path,
      note:
        `Comparing the latest two complete runs of ${after.text}: ${path.basename(before.path)} → ${path.basename(after.path)}` +
        `${passed.length === 0 ? '' : ` (passed over: ${passed.join(', ')})`}.`,
    };
  }
  throw new UsageError({
    code: 'NO_RESULTS',
    message:
      `No two complete runs of the same selection in ${outputsDir} ` +
      `(${complete.length} complete run(s) of different selections, ${partial} shard, rerun, interrupted, stopped or unreadable file(s)). ` +
      'Pass the two files to compare.',
  });
}

/** Per model, how each side's runs were answered (live, replayed from recordings, the mock). */
function answerSourceNotes(before: ResultsFile, after: ResultsFile): string[] {
  const sources = (file: ResultsFile) => {
    const byModel = new Map<string, string>();
    for (const result of file.results) {
      if (result.status === 'skipped') continue;
      const source = result.details.mock ? 'mock' : result.details.replayed ? 'replayed' : 'live';
      const seen = byModel.get(result.model);
      byModel.set(result.model, seen === undefined || seen === source ? source : 'mixed');
    }
    return byModel;
  };
  const described: Record<string, string> = {
    mock: 'answered by mock:reference (its reference SQL, no model)',
    replayed: 'replayed from recordings',
    live: 'live model calls',
    mixed: 'partly replayed from recordings',
  };
  const beforeSources = sources(before);
  const notes: string[] = [];
  for (const [model, afterSource] of sources(after)) {
    const beforeSource = beforeSources.get(model);
    if (beforeSource === undefined || beforeSource === afterSource) continue;
    notes.push(
      `${model}: the earlier file's runs were ${described[beforeSource]}, the later file's ${described[afterSource]}; ` +
        'their differences are not a change of the model alone.',
    );
  }
  return notes;
}

/**
 * `nao test plan [file] --detect N`: per model, the chance that a real change of N points
 * shows as significant in `nao test diff` with this suite, and the tests or repeats for 80%.
 */
export const planTests: CommandAction<CliDependencies> = async ({ io, args, flags }) => {
  const detect = typeof flags.detect === 'string' ? positiveNumberFlag('--detect', flags.detect) : 5;
  if (detect >= 100) {
    throw new UsageError({
      code: 'INVALID_FLAG',
      message: `--detect is in points below 100, got "${detect}".`,
    });
  }
  let target: string;
  if (args[0] !== undefined) target = resolveFile(io, args[0]);
  else {
    const { outputsDir, files } = await resultFiles(io);
    if (files.length === 0) throw noResults(outputsDir, 1);
    target = files.at(-1)!;
  }
  const file = ensureByModel(await readResultsFile(target));
  const lines = [
    `Planning from ${path.relative(io.cwd, target) || target}: detect a change of ${detect} points`,
  ];
  for (const plan of planSuite({ file, detect })) {
    const attempts = plan.repeat === 1 ? '1 attempt' : `${plan.repeat} attempts`;
    lines.push(
      '',
      `${plan.model}: ${plan.tests} tests × ${attempts}, pass rate ${formatPercentWithInterval(plan.summary.pass_rate, plan.summary.pass_rate_ci95)}`,
      `  chance to detect it: ${Math.round(plan.power * 100)}%`,
      `  for 80%: ${plan.testsNeeded.toLocaleString('en-US')} tests at ${attempts} each, or --repeat ${plan.repeatsNeeded} on these ${plan.tests} tests`,
    );
    if (plan.withinVariance === null) {
      lines.push(
        '  (each test ran once, so any test is assumed able to flip; run with --repeat 3 to measure how flaky the tests really are)',
      );
    }
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
};
