/**
 * Regenerates the bundled example's recordings (`example/tests/recordings/openai__gpt-4.1/`):
 *
 *     npx tsx tools/recordings/make-example-recordings.ts
 *
 * Run it after a change to the agent's prompts, tools or the example itself makes them stale.
 * See example-recording-script.ts for how they are made (no model is called).
 */
import path from 'node:path';
import { EXAMPLE_DIR } from '../../test-support/cli/example-project.js';
import { MISTAKEN_TEST, recordExample } from './example-recording-script.js';

const results = await recordExample({
  recordingsDir: path.join(EXAMPLE_DIR, 'tests', 'recordings'),
  displayDir: EXAMPLE_DIR,
});
let unexpected = 0;
for (const result of results) {
  const expected = result.name === MISTAKEN_TEST ? 'failed' : 'passed';
  if (result.status !== expected) unexpected++;
  process.stdout.write(
    `${result.status === expected ? 'ok ' : 'BAD'} ${result.name}: ${result.status} (${result.message})\n`,
  );
}
if (unexpected > 0) {
  process.stderr.write(`${unexpected} run(s) did not end as scripted: the recordings are not usable.\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `Recorded ${results.length} run(s) in ${path.relative(process.cwd(), path.join(EXAMPLE_DIR, 'tests', 'recordings'))}\n`,
  );
}
