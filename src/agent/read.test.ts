import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProjectFixture,
  REFERENCE_SQL,
  SECRET_VALUES,
} from '../../test-support/agent/project-fixture.js';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createReadTool, READ_LIMITS } from './read.js';

describe('read tool', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let read: ReturnType<typeof createReadTool>;
  let projectDir: string;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    projectDir = await realpath(fixture.projectDir);
    read = createReadTool({ projectDir });
  });
  afterAll(() => fixture.cleanup());

  it('reads a whole file', async () => {
    expect(await callTool(read, { path: 'RULES.md' })).toEqual({
      path: 'RULES.md',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      content: "# Rules\nRevenue means SUM(orders.amount) for status = 'paid'.\nFiscal year starts in April.",
    });
  });

  it('reads a line range', async () => {
    expect(await callTool(read, { path: 'docs/metrics.md', start_line: 3, end_line: 4 })).toMatchObject({
      start_line: 3,
      end_line: 4,
      total_lines: 7,
      content: '## revenue\nPaid orders only.',
    });
  });

  it.each([
    [{ path: 'docs/metrics.md', start_line: 50 }, /past the end.*7 lines/],
    [{ path: 'docs/metrics.md', start_line: 4, end_line: 2 }, /before start_line/],
    [{ path: 'docs' }, /is a folder/],
    [{ path: 'data/blob.bin' }, /binary/],
    [{ path: 'tests/total_revenue.yml' }, /tests\/ folder/],
    [{ path: 'docs/answers.md' }, /tests\/ folder/],
    [{ path: 'nao_config.yaml' }, /nao_config\.yaml/],
    [{ path: '.env' }, /secrets/],
    [{ path: '.env.local' }, /secrets/],
    [{ path: 'keys/server.pem' }, /secrets/],
    [{ path: 'keys/id_rsa' }, /secrets/],
    [{ path: 'credentials.json' }, /secrets/],
    [{ path: 'profiles.yml' }, /secrets/],
    [{ path: '.nao/auth.json' }, /\.nao\//],
    [{ path: '../outside/passwd' }, /outside the project/],
    [{ path: 'docs/link-outside.md' }, /points outside/],
    [{ path: '/etc/passwd' }, /not a relative path/],
  ])('refuses %o with a tool error', async (input, error) => {
    const output = await callTool(read, input);
    expect(output).toEqual({ error: expect.stringMatching(error) });
    expect(JSON.stringify(output)).not.toContain(REFERENCE_SQL);
    for (const leaked of SECRET_VALUES) expect(JSON.stringify(output)).not.toContain(leaked);
  });

  it('reads long files in parts and says where to continue', async () => {
    const lines = Array.from({ length: READ_LIMITS.maxLines + 10 }, (_, i) => `line ${i + 1}`);
    await writeFile(path.join(projectDir, 'long.md'), `${lines.join('\n')}\n`);
    const first = await callTool(read, { path: 'long.md' });
    expect(first).toMatchObject({
      start_line: 1,
      end_line: READ_LIMITS.maxLines,
      total_lines: READ_LIMITS.maxLines + 10,
      note: expect.stringContaining(`start_line ${READ_LIMITS.maxLines + 1}`),
    });
    const rest = await callTool(read, { path: 'long.md', start_line: READ_LIMITS.maxLines + 1 });
    expect(rest).toMatchObject({
      end_line: READ_LIMITS.maxLines + 10,
      content: expect.stringMatching(/^line 1001\n/),
    });
    expect('note' in rest).toBe(false);
  });

  it('cuts a single huge line rather than returning nothing', async () => {
    await writeFile(path.join(projectDir, 'minified.json'), 'x'.repeat(READ_LIMITS.maxChars * 2));
    const output = await callTool(read, { path: 'minified.json' });
    expect(output).toMatchObject({ start_line: 1, end_line: 1, note: expect.stringContaining('was cut') });
    expect('content' in output ? output.content.length : 0).toBe(READ_LIMITS.maxChars);
  });

  it('reads an empty file', async () => {
    await writeFile(path.join(projectDir, 'empty.md'), '');
    expect(await callTool(read, { path: 'empty.md' })).toMatchObject({ total_lines: 0, content: '' });
  });

  it('keeps Windows line endings out of the content', async () => {
    await writeFile(path.join(projectDir, 'crlf.md'), 'a\r\nb\r\n');
    expect(await callTool(read, { path: 'crlf.md' })).toMatchObject({ total_lines: 2, content: 'a\nb' });
  });
});
