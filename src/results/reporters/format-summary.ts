/** The text of `nao test summary [FILE]`: what the run was, then the same tables as the run printed. */

import { elapsedMs } from '../../number-format/format-values.js';
import type { ResultsFile } from '../results-file.js';
import { orderedModels } from '../summarize.js';
import { paint } from './box-table.js';
import { type ConsoleOptions, renderReport } from './console-tables.js';
import { toCellText } from './terminal-text.js';

/**
 * A header (file, when, models, command and the other recorded run settings), then the console
 * report of the file's results (its costs include the extraction's and the judge's).
 */
export function formatSummary(options: ConsoleOptions & { file: ResultsFile; path?: string }): string {
  const { file } = options;
  const color = options.color ?? false;
  const models = file.models && file.models.length > 0 ? file.models : orderedModels(file.results);
  const header: Array<[string, string]> = [];
  if (options.path !== undefined) header.push(['File', options.path]);
  header.push(['Run at', file.timestamp]);
  if (file.started_at !== undefined) header.push(['Started', file.started_at]);
  if (file.finished_at !== undefined) header.push(['Finished', file.finished_at]);
  header.push([models.length === 1 ? 'Model' : 'Models', models.length > 0 ? models.join(', ') : '(none)']);
  if (file.command !== undefined) header.push(['Command', file.command]);
  if (file.repeat !== undefined && file.repeat > 1)
    header.push(['Repeat', `${file.repeat} attempts per test`]);
  if (file.shard !== undefined) {
    const { index, count, suite } = file.shard;
    header.push(['Shard', `${index}/${count} of a suite of ${suite.tests.length} test(s)`]);
  }
  if (file.merged !== undefined) {
    const { shards, shard_count, missing } = file.merged;
    const absent =
      missing.length === 0 ? '' : `; missing ${missing.map((index) => `${index}/${shard_count}`).join(', ')}`;
    header.push(['Merged', `${shards.length} of ${shard_count} shard(s)${absent}`]);
  }
  if (file.nao_version !== undefined) header.push(['nao', file.nao_version]);
  if (file.price_table_version !== undefined) header.push(['Prices', file.price_table_version]);
  const labelWidth = Math.max(...header.map(([label]) => label.length));
  const lines = header.map(([label, value]) => `${`${label}:`.padEnd(labelWidth + 1)} ${toCellText(value)}`);
  if (file.interrupted === true) {
    lines.push(paint('The run was interrupted: runs that never ran are listed as skipped.', 'yellow', color));
  }

  const sections = [lines.join('\n')];
  if (file.results.length === 0) {
    sections.push('The file holds no runs.');
  } else {
    sections.push(
      renderReport({
        ...options,
        results: file.results,
        modelOrder: models,
        // The file's own, as the run's console printed them (test.stats.cluster included).
        byModel: file.by_model,
        ...(file.comparisons === undefined ? {} : { comparisons: file.comparisons }),
        ...(file.recounted === undefined ? {} : { recounted: file.recounted }),
        wallClockMs: elapsedMs(file.started_at ?? null, file.finished_at ?? null),
      }),
    );
  }
  return sections.join('\n\n');
}
