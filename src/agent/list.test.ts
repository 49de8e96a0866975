import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture } from '../../test-support/agent/project-fixture.js';
import { callTool } from '../../test-support/agent/scripted-model.js';
import { createListTool, MAX_LIST_ENTRIES } from './list.js';

describe('list tool', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let list: ReturnType<typeof createListTool>;
  let projectDir: string;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    projectDir = await realpath(fixture.projectDir);
    list = createListTool({ projectDir });
  });
  afterAll(() => fixture.cleanup());

  it('lists the context files recursively, leaving out tests/, config, secrets and links outside', async () => {
    const output = await callTool(list, {});
    expect('error' in output).toBe(false);
    const paths = 'entries' in output ? output.entries.map((entry) => entry.path) : [];
    expect(paths).toEqual([
      'RULES.md',
      'data/',
      'data/blob.bin',
      'docs/',
      'docs/metrics.md',
      'keys/',
      'metrics-link.md',
      'models/',
      'models/orders.sql',
      'models/schema.yml',
    ]);
    const rules = 'entries' in output ? output.entries.find((entry) => entry.path === 'RULES.md') : undefined;
    expect(rules).toMatchObject({ kind: 'file', size: expect.any(Number) });
  });

  it('lists one folder', async () => {
    const output = await callTool(list, { path: 'models' });
    expect(output).toMatchObject({
      path: 'models',
      entries: [{ path: 'models/orders.sql' }, { path: 'models/schema.yml' }],
    });
  });

  it.each([
    ['tests', /tests\/ folder/],
    ['../outside', /outside the project/],
    ['docs/outside-folder', /points outside/],
    ['.git', /\.git\//],
    ['/etc', /not a relative path/],
  ])('refuses %s with a tool error', async (requested, error) => {
    const output = await callTool(list, { path: requested });
    expect(output).toEqual({ error: expect.stringMatching(error) });
  });

  it(`stops at ${MAX_LIST_ENTRIES} entries and says so`, async () => {
    const many = path.join(projectDir, 'many');
    await mkdir(many);
    await Promise.all(
      Array.from({ length: MAX_LIST_ENTRIES + 5 }, (_, i) =>
        writeFile(path.join(many, `f${String(i).padStart(4, '0')}.md`), 'x'),
      ),
    );
    const output = await callTool(list, { path: 'many' });
    expect(output).toMatchObject({ truncated: true, note: expect.stringContaining('sub-folder') });
    expect('entries' in output ? output.entries.length : 0).toBe(MAX_LIST_ENTRIES);
  });
});
