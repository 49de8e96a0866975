/** The text of `nao test summary [FILE]`: what the run was, then the same tables as the run printed. */

import { formatCost } from '../report/format-values.js';
import type { ResultsFile } from '../report/results-file.js';
import { orderedModels } from '../report/summarize.js';
import { paint } from './box-table.js';
import { type ConsoleOptions, renderReport } from './console-tables.js';
import { toCellText } from './terminal-text.js';

/**
 * A header (file, when, models, command and the other recorded run settings), the console
 * report of the file's results, and the extraction cost, which the tables leave out.
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
    sections.push(renderReport({ ...options, results: file.results, modelOrder: models }));
  }
  const extraction = file.summary.total_extraction_cost;
  if (extraction !== null && extraction !== undefined) {
    sections.push(`Extraction cost (not in the tables): ${formatCost(extraction)}`);
  }
  const judge = file.summary.total_judge_cost;
  if (judge !== null && judge !== undefined) {
    sections.push(`Judge cost (not in the tables): ${formatCost(judge)}`);
  }
  return sections.join('\n\n');
}
