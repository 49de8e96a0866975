import { rm } from 'node:fs/promises';
import path from 'node:path';
import { readResultsFile, writeResultsFile, writeResultsFileAt } from '../results/index.js';
import { endSuite, formatSummary, junitReporter, type Reporter } from '../results/reporters/index.js';
import { mergeShardFiles } from '../shard/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import { loadProjectConfig } from './load-project.js';

/**
 * `nao test merge a.json b.json … [-o merged.json]`: the shard files of one suite as one
 * results file. Exits like the run it stands for: 1 when a run failed, errored or was skipped.
 */
export const mergeResults: CommandAction<CliDependencies> = async ({ io, args, flags, deps }) => {
  const sources = args.filter((arg): arg is string => arg !== undefined);
  const shards = await Promise.all(
    sources.map(async (source) => ({ source, file: await readResultsFile(path.resolve(io.cwd, source)) })),
  );
  const now = deps.now?.() ?? new Date();
  const file = mergeShardFiles({
    shards,
    allowPartial: flags.allowPartial === true,
    now,
    command: ['nao', ...(io.argv ?? [])].join(' '),
  });

  // The files first: a failure to print must not lose the merge.
  const output = typeof flags.output === 'string' ? flags.output : undefined;
  const saved =
    output === undefined
      ? await writeResultsFile({
          outputsDir: path.join((await loadProjectConfig(io)).projectDir, 'tests', 'outputs'),
          file,
          now,
        })
      : await writeResultsFileAt({ path: path.resolve(io.cwd, output), file });
  const reporters: Reporter[] =
    typeof flags.junit === 'string' ? [junitReporter({ path: flags.junit, cwd: io.cwd })] : [];
  const notices = await endSuite(reporters, file);

  const shown = path.relative(io.cwd, saved) || saved;
  if (flags.quiet !== true) {
    io.stdout.write(`${formatSummary({ file, path: shown, width: io.stdout.columns ?? 120 })}\n\n`);
  }
  const merged = file.merged!;
  io.stdout.write(
    `Merged ${merged.shards.length} of ${merged.shard_count} shard(s), ${file.results.length} run(s), into ${shown}\n`,
  );
  for (const notice of notices) io.stdout.write(`${notice}\n`);
  if (flags.removeShards === true) {
    // Only now that the merged file is whole on disk; never the file just written (-o onto a shard).
    const removed = [...new Set(sources.map((source) => path.resolve(io.cwd, source)))].filter(
      (source) => source !== path.resolve(saved),
    );
    await Promise.all(removed.map((source) => rm(source, { force: true })));
    io.stdout.write(`Removed the ${removed.length} shard file(s) (--remove-shards).\n`);
  }
  if (merged.missing.length > 0) {
    io.stderr.write(
      `Warning: shard ${merged.missing.map((index) => `${index}/${merged.shard_count}`).join(', ')} missing (--allow-partial): ` +
        `${file.summary.skipped} run(s) recorded as skipped.\n`,
    );
  }
  const { failed, errors, skipped } = file.summary;
  return failed + errors + skipped > 0 ? EXIT.failed : EXIT.ok;
};
