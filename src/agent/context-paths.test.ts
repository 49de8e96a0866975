import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture } from '../../test-support/agent/project-fixture.js';
import { deniedReason, resolveContextPath } from './context-paths.js';

describe('deniedReason', () => {
  it.each([
    ['tests', /tests\/ folder/],
    ['tests/total_revenue.yml', /reference answers/],
    ['Tests/outputs/results.json', /tests\/ folder/],
    ['nao_config.yaml', /nao_config\.yaml/],
    ['nested/nao_config.yml', /nao_config\.yml/],
    ['.env', /secrets/],
    ['.env.production', /secrets/],
    ['config/prod.env', /secrets/],
    ['keys/server.pem', /secrets/],
    ['keys/tls.key', /secrets/],
    ['id_rsa', /secrets/],
    ['home/id_ed25519.pub', /secrets/],
    ['credentials', /secrets/],
    ['credentials.json', /secrets/],
    ['auth.json', /secrets/],
    ['.pgpass', /secrets/],
    ['.netrc', /secrets/],
    ['gcp-service-account.json', /secrets/],
    ['profiles.yml', /secrets/],
    ['.nao/auth.json', /\.nao\//],
    ['.git/config', /\.git\//],
    ['node_modules/x/README.md', /node_modules\//],
    ['deep/.ssh/config', /\.ssh\//],
  ])('refuses %s', (relative, reason) => {
    expect(deniedReason(relative)).toMatch(reason);
  });

  it.each([
    '.',
    'RULES.md',
    'docs/metrics.md',
    'models/tests/unique_id.sql',
    'models/schema.yml',
    'docs/environment.md',
    'keyboard.md',
    'latest/readme.md',
  ])('allows %s', (relative) => {
    expect(deniedReason(relative)).toBeNull();
  });
});

describe('resolveContextPath', () => {
  let fixture: Awaited<ReturnType<typeof createProjectFixture>>;
  let projectDir: string;
  beforeAll(async () => {
    fixture = await createProjectFixture();
    projectDir = await realpath(fixture.projectDir);
  });
  afterAll(() => fixture.cleanup());

  it('resolves files and folders inside the project', async () => {
    expect(await resolveContextPath({ projectDir, requested: 'docs/metrics.md' })).toMatchObject({
      success: true,
      relative: 'docs/metrics.md',
      kind: 'file',
    });
    expect(await resolveContextPath({ projectDir, requested: undefined })).toMatchObject({
      success: true,
      relative: '.',
      kind: 'directory',
    });
    expect(await resolveContextPath({ projectDir, requested: 'models/../docs/./metrics.md' })).toMatchObject({
      success: true,
      relative: 'docs/metrics.md',
    });
  });

  it('follows a symlink that stays inside the project', async () => {
    expect(await resolveContextPath({ projectDir, requested: 'metrics-link.md' })).toMatchObject({
      success: true,
      relative: 'docs/metrics.md',
    });
  });

  it.each([
    ['../outside/passwd', /outside the project folder/],
    ['docs/../../outside/passwd', /outside the project folder/],
    ['..', /outside the project folder/],
    ['/etc/passwd', /not a relative path/],
    ['~/.ssh/id_rsa', /not a relative path/],
    ['C:\\Windows\\win.ini', /not a relative path/],
    ['docs/link-outside.md', /points outside the project folder/],
    ['docs/outside-folder', /points outside the project folder/],
    ['docs/outside-folder/passwd', /points outside the project folder/],
    ['docs/answers.md', /tests\/ folder/],
    ['tests/total_revenue.yml', /tests\/ folder/],
    ['./tests/../tests/total_revenue.yml', /tests\/ folder/],
    ['nao_config.yaml', /nao_config\.yaml/],
    ['.env', /secrets/],
    ['.nao/auth.json', /\.nao\//],
    ['missing.md', /does not exist/],
    ['docs\u0000.md', /NUL/],
  ])('refuses %s', async (requested, error) => {
    const resolved = await resolveContextPath({ projectDir, requested });
    expect(resolved.success).toBe(false);
    expect(resolved.success ? '' : resolved.error).toMatch(error);
  });

  it('refuses an absolute path even when it points inside the project', async () => {
    const resolved = await resolveContextPath({ projectDir, requested: path.join(projectDir, 'RULES.md') });
    expect(resolved).toMatchObject({ success: false });
  });
});
