import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCredentialStore, naoHome } from './credential-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'nao-home-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const login = (token: string, email = 'ada@example.com') => ({
  token,
  email,
  savedAt: '2026-03-01T10:00:00.000Z',
});

describe('naoHome', () => {
  it.each([
    [{ NAO_HOME: '/tmp/x' }, '/tmp/x'],
    [{ NAO_HOME: '  ', HOME: '/home/ada' }, '/home/ada/.nao'],
    [{ HOME: '/home/ada' }, '/home/ada/.nao'],
  ])('%j → %s', (env, expected) => {
    expect(naoHome(env)).toBe(expected);
  });
});

describe('credential store', () => {
  it('keeps one session per backend URL, in a file only the user can read', async () => {
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    expect(store.file).toBe(path.join(home, 'auth.json'));
    expect(await store.get('http://localhost:5005')).toBeNull();
    await store.save('http://localhost:5005/', login('token-a'));
    await store.save('http://127.0.0.1:6000', login('token-b', 'grace@example.com'));
    expect(await store.get('http://LOCALHOST:5005')).toEqual(login('token-a'));
    expect((await store.get('http://127.0.0.1:6000'))?.email).toBe('grace@example.com');
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(store.file, 'utf8'))).toEqual({
      backends: {
        'http://localhost:5005': login('token-a'),
        'http://127.0.0.1:6000': login('token-b', 'grace@example.com'),
      },
    });
  });

  it('makes an existing file private again when it saves', async () => {
    await writeFile(path.join(home, 'auth.json'), '{"backends":{}}', { mode: 0o644 });
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    await store.save('http://localhost:5005', login('t'));
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
  });

  it('removes one entry and leaves the others', async () => {
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    await store.save('http://localhost:5005', login('a'));
    await store.save('http://localhost:6000', login('b'));
    expect(await store.remove('http://localhost:5005/')).toBe(true);
    expect(await store.remove('http://localhost:5005')).toBe(false);
    expect(await store.get('http://localhost:5005')).toBeNull();
    expect((await store.get('http://localhost:6000'))?.token).toBe('b');
  });

  it('keeps every entry when several saves run at once', async () => {
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.save(`http://localhost:${5000 + i}`, login(`token-${i}`))),
    );
    const file = JSON.parse(await readFile(store.file, 'utf8')) as { backends: Record<string, unknown> };
    expect(Object.keys(file.backends)).toHaveLength(8);
  });

  it.each([
    ['not JSON', '{oops', 'it is not valid JSON'],
    ['the wrong shape', '{"backends":{"http://x":{"token":1}}}', 'expected'],
  ])('names the file and the fix when it is %s', async (_label, content, why) => {
    await writeFile(path.join(home, 'auth.json'), content);
    const store = createCredentialStore({ env: { NAO_HOME: home } });
    await expect(store.get('http://localhost:5005')).rejects.toMatchObject({
      code: 'CREDENTIALS_FILE_INVALID',
      message: expect.stringMatching(new RegExp(`${path.join(home, 'auth.json')}.*${why}.*Delete the file`)),
    });
  });
});
