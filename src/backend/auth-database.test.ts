import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/backend/backend-process.js';
import { openAuthDatabase, redactUrl, SQLITE_STORE_FILE } from './auth-database.js';

let projectDir: string;
beforeEach(async () => {
  projectDir = await mkdtemp(path.join(tmpdir(), 'nao-store-'));
});
afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

describe('openAuthDatabase', () => {
  it('defaults to a private SQLite file in the project .nao/ folder', async () => {
    const store = await openAuthDatabase({ projectDir });
    try {
      expect(store.kind).toBe('sqlite');
      expect(store.location).toBe(path.join(projectDir, SQLITE_STORE_FILE));
      expect((await stat(store.location)).mode & 0o777).toBe(0o600);
      expect((await stat(path.join(projectDir, '.nao'))).mode & 0o777).toBe(0o700);
    } finally {
      await store.close();
      await store.close();
    }
  });

  it.each([
    ['not a URL', 'nonsense', 'AUTH_STORE_BAD_URL', 'is not a URL'],
    ['another database', 'mysql://root:pw@127.0.0.1/test', 'AUTH_STORE_BAD_URL', 'must be a postgres:// URL'],
  ])('refuses %s in NAO_DATABASE_URL', async (_label, url, code, message) => {
    await expect(openAuthDatabase({ projectDir, databaseUrl: url })).rejects.toMatchObject({
      code,
      message: expect.stringContaining(message),
    });
  });

  it('names the server it cannot reach, without the password', async () => {
    const url = `postgres://nao:pw-store-secret@127.0.0.1:${await freePort()}/nao`;
    const error = await openAuthDatabase({ projectDir, databaseUrl: url }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'AUTH_STORE_UNAVAILABLE' });
    expect((error as Error).message).toContain('127.0.0.1');
    expect((error as Error).message).not.toContain('pw-store-secret');
  });
});

describe('redactUrl', () => {
  it.each([
    ['postgres://nao:secret@db:5432/nao', 'postgres://nao:***@db:5432/nao'],
    [
      'postgres://db:5432/nao?options=-c%20search_path%3Dx',
      'postgres://db:5432/nao?options=-c%20search_path%3Dx',
    ],
    ['not a url //user:secret@host', 'not a url //user:***@host'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
