import path from 'node:path';
import { UsageError } from '../errors/index.js';
import { compareRunFiles, ensureByModel, listResultsFiles, readResultsFile } from '../report/index.js';
import { formatRunComparison, formatSummary } from '../reporters/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
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
    io.stdout.write(`${JSON.stringify({ file: target, timestamp, summary, by_model, repeats }, null, 2)}\n`);
  } else {
    io.stdout.write(
      `${formatSummary({ file: results, path: path.relative(io.cwd, target) || target, width: io.stdout.columns ?? 120 })}\n`,
    );
  }
  return EXIT.ok;
};

/** `nao test diff [before] [after]`: regressions and fixes between two results files. */
export const diffResults: CommandAction<CliDependencies> = async ({ io, args, flags }) => {
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
    paths = [files.at(-2)!, files.at(-1)!];
  }
  const [beforeFile, afterFile] = await Promise.all(paths.map((file) => readResultsFile(file)));
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
    })}\n`,
  );
  return comparison.regressions.length > 0 && flags.fail !== false ? EXIT.failed : EXIT.ok;
};
