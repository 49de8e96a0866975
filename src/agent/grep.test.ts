import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProjectFixture,
  REFERENCE_SQL,
  SECRET_VALUES,
} from '../../test-support/agent/project-fixture.js';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createGrepTool, GREP_LIMITS } from './grep.js';
import { searchLines } from './regex-search.js';

describe('grep tool', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let grep: ReturnType<typeof createGrepTool>;
  let projectDir: string;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    projectDir = await realpath(fixture.projectDir);
    grep = createGrepTool({ projectDir });
  });
  afterAll(() => fixture.cleanup());

  it('finds matching lines case-insensitively across the context files', async () => {
    const output = await callTool(grep, { pattern: 'REVENUE' });
    expect(output).toMatchObject({
      matches: [
        { path: 'RULES.md', line: 2, text: "Revenue means SUM(orders.amount) for status = 'paid'." },
        { path: 'docs/metrics.md', line: 3, text: '## revenue' },
        // The in-project symlink is searched as its own path.
        { path: 'metrics-link.md', line: 3, text: '## revenue' },
      ],
      total_matches: 3,
    });
  });

  it('never searches tests/, nao_config.yaml, secrets, or links leading to them', async () => {
    for (const pattern of [
      'secret_reference_total',
      'duckdb',
      'sk-secret',
      'hunter2',
      'PRIVATE',
      'TOKEN-123',
      'dbt-password',
      'root:x',
    ]) {
      const output = await callTool(grep, { pattern });
      expect(output).toMatchObject({ matches: [], total_matches: 0 });
    }
  });

  it('searches one file or folder', async () => {
    expect(await callTool(grep, { pattern: 'orders', path: 'models' })).toMatchObject({
      matches: [
        { path: 'models/orders.sql', line: 1 },
        { path: 'models/schema.yml', line: 2 },
      ],
      files_searched: 2,
    });
    expect(await callTool(grep, { pattern: 'churn|fiscal', path: 'docs/metrics.md' })).toMatchObject({
      matches: [{ path: 'docs/metrics.md', line: 6, text: '## churn' }],
    });
  });

  it.each([
    [{ pattern: '(unclosed' }, /invalid regular expression/],
    [{ pattern: '' }, /pattern is empty/],
    [{ pattern: 'x', path: 'tests' }, /tests\/ folder/],
    [{ pattern: 'x', path: 'tests/total_revenue.yml' }, /tests\/ folder/],
    [{ pattern: 'x', path: '.env' }, /secrets/],
    [{ pattern: 'x', path: '..' }, /outside the project/],
  ])('refuses %o with a tool error', async (input, error) => {
    const output = await callTool(grep, input);
    expect(output).toEqual({ error: expect.stringMatching(error) });
    expect(JSON.stringify(output)).not.toContain(REFERENCE_SQL);
    for (const leaked of SECRET_VALUES) expect(JSON.stringify(output)).not.toContain(leaked);
  });

  it('caps the matches it returns and reports the total', async () => {
    const lines = Array.from({ length: GREP_LIMITS.maxMatches + 20 }, (_, i) => `needle ${i}`);
    await writeFile(path.join(projectDir, 'haystack.md'), lines.join('\n'));
    const output = await callTool(grep, { pattern: 'needle', path: 'haystack.md' });
    expect(output).toMatchObject({
      total_matches: GREP_LIMITS.maxMatches + 20,
      truncated: true,
      note: expect.stringContaining(`Showing ${GREP_LIMITS.maxMatches} of ${GREP_LIMITS.maxMatches + 20}`),
    });
    expect('matches' in output ? output.matches.length : 0).toBe(GREP_LIMITS.maxMatches);
  });

  it('skips binary files and says so', async () => {
    expect(await callTool(grep, { pattern: 'binary', path: 'data' })).toMatchObject({
      matches: [],
      note: expect.stringContaining('1 binary'),
    });
  });
});

describe('searchLines', () => {
  const search = (options: { pattern: string; text: string; timeoutMs?: number; signal?: AbortSignal }) =>
    searchLines({
      pattern: options.pattern,
      flags: 'i',
      files: [{ path: 'evil.md', text: options.text }],
      maxMatches: 10,
      maxLineChars: 100,
      timeoutMs: options.timeoutMs ?? 10_000,
      signal: options.signal,
    });

  it('answers a catastrophically backtracking pattern at once (RE2: linear time)', async () => {
    const started = performance.now();
    const text = [`${'a'.repeat(40)}!`, 'a'.repeat(30), `${'1'.repeat(5000)}`].join('\n');
    expect(await search({ pattern: '^(a+)+$', text })).toEqual({
      success: true,
      matches: [{ path: 'evil.md', line: 2, text: 'a'.repeat(30) }],
      totalMatches: 1,
    });
    expect(await search({ pattern: '(\\d+,?)+%', text })).toEqual({
      success: true,
      matches: [],
      totalMatches: 0,
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a pattern RE2 cannot run, saying why', async () => {
    expect(await search({ pattern: '(a)\\1', text: 'aa' })).toEqual({
      success: false,
      error: expect.stringContaining('invalid regular expression: uses the backreference \\1'),
    });
    expect(await search({ pattern: 'a(?=b)', text: 'ab' })).toEqual({
      success: false,
      error: expect.stringContaining('uses lookahead (?=…)'),
    });
  });

  it('stops at the time limit on a search too large for it', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the context`).join('\n');
    expect(await search({ pattern: 'never(here|there)', text, timeoutMs: 1 })).toEqual({
      success: false,
      error: 'the pattern took longer than 0.001 s to search; use a simpler pattern or a narrower path',
    });
  });

  it('rejects with the abort reason when aborted mid-search', async () => {
    const controller = new AbortController();
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the context`).join('\n');
    const searching = search({ pattern: 'never(here|there)', text, signal: controller.signal });
    setImmediate(() => controller.abort(new Error('cancelled by user')));
    await expect(searching).rejects.toThrow('cancelled by user');
  });
});
