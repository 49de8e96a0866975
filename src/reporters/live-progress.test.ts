import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { judgedDetails, run } from '../../test-support/report/run-fixture.js';
import { LiveProgress } from './live-progress.js';

function progress(options: { verbose?: boolean } = {}) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  const live = new LiveProgress({
    out,
    interactive: false,
    total: 2,
    color: false,
    verbose: options.verbose ?? false,
    now: () => 0,
  });
  return { live, output: () => text };
}

describe('LiveProgress', () => {
  it('says which runs a judge model graded, and by which model', () => {
    const { live, output } = progress();
    live.finish(
      run({ name: 'biggest_customer', message: 'Names Acme Corp.', details: judgedDetails() }),
      0.011,
    );
    live.finish(run({ name: 'total_revenue', message: 'match' }), 0.01);
    expect(output().split('\n')).toEqual([
      '[1/2] ✓ passed     biggest_customer  openai:gpt-4.1  Names Acme Corp.  1.0s  $0.0100  (judged by openai:gpt-4.1)',
      '[2/2] ✓ passed     total_revenue  openai:gpt-4.1  match  1.0s  $0.0100',
      '',
    ]);
  });

  it('prints the expected answer and the judge verdict with --verbose', () => {
    const { live, output } = progress({ verbose: true });
    live.finish(run({ name: 'biggest_customer', details: judgedDetails() }), null);
    expect(output()).toContain('  expected answer: Acme Corp is the biggest customer.\n');
    expect(output()).toContain('  judge openai:gpt-4.1: pass: Names Acme Corp, as expected.\n');
  });
});
