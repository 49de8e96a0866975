import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_SECRET_FILE, loadAuthSecret } from './auth-secret.js';

let projectDir: string;
beforeEach(async () => {
  projectDir = await mkdtemp(path.join(tmpdir(), 'nao-secret-'));
});
afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

describe('loadAuthSecret', () => {
  it('creates a private random secret once and keeps it across restarts', async () => {
    const first = await loadAuthSecret({ projectDir, env: {} });
    const file = path.join(projectDir, AUTH_SECRET_FILE);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(await loadAuthSecret({ projectDir, env: {} })).toBe(first);
  });

  it('two servers starting at once agree on one secret', async () => {
    const [a, b] = await Promise.all([
      loadAuthSecret({ projectDir, env: {} }),
      loadAuthSecret({ projectDir, env: {} }),
    ]);
    expect(a).toBe(b);
  });

  it('prefers NAO_AUTH_SECRET and refuses a short one', async () => {
    const secret = 's'.repeat(40);
    expect(await loadAuthSecret({ projectDir, env: { NAO_AUTH_SECRET: secret } })).toBe(secret);
    await expect(loadAuthSecret({ projectDir, env: { NAO_AUTH_SECRET: 'short' } })).rejects.toMatchObject({
      code: 'AUTH_SECRET_TOO_SHORT',
    });
  });
});
