import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackendSession } from './backend-session.js';
import { type CredentialStore, createCredentialStore, type StoredLogin } from './credential-store.js';

const URL = 'http://localhost:5005';
let home: string;
let store: CredentialStore;
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'nao-session-'));
  store = createCredentialStore({ env: { NAO_HOME: home } });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A log-in that hands out token-1, token-2, … and counts its calls. */
function countingLogin(options: { failWith?: Error } = {}) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    login: async (): Promise<StoredLogin> => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (options.failWith) throw options.failWith;
      return { token: `token-${calls}`, email: 'ada@example.com', savedAt: new Date().toISOString() };
    },
  };
}

describe('backend session', () => {
  it('uses the stored token without logging in', async () => {
    const counter = countingLogin();
    const session = createBackendSession({
      backendUrl: URL,
      store,
      initial: { token: 'stored', email: 'ada@example.com', savedAt: '' },
      login: counter.login,
    });
    expect(await session.token()).toBe('stored');
    expect(counter.calls).toBe(0);
  });

  it('logs in once on first use, however many runs ask at once, and stores the token', async () => {
    const counter = countingLogin();
    const session = createBackendSession({ backendUrl: URL, store, initial: null, login: counter.login });
    const tokens = await Promise.all(Array.from({ length: 4 }, () => session.token()));
    expect(tokens).toEqual(['token-1', 'token-1', 'token-1', 'token-1']);
    expect(counter.calls).toBe(1);
    expect((await store.get(URL))?.token).toBe('token-1');
  });

  it('renews a refused token once for all the runs that held it', async () => {
    const counter = countingLogin();
    const session = createBackendSession({
      backendUrl: URL,
      store,
      initial: { token: 'revoked', email: 'ada@example.com', savedAt: '' },
      login: counter.login,
    });
    const renewed = await Promise.all(Array.from({ length: 4 }, () => session.renew('revoked')));
    expect(renewed).toEqual(['token-1', 'token-1', 'token-1', 'token-1']);
    // A run that was refused after the renewal holds the old token: it gets the new one, no log-in.
    expect(await session.renew('revoked')).toBe('token-1');
    expect(counter.calls).toBe(1);
    // The new token refused in turn: one more log-in.
    expect(await session.renew('token-1')).toBe('token-2');
    expect(counter.calls).toBe(2);
  });

  it('a failed log-in fails every waiting run without being retried', async () => {
    const counter = countingLogin({ failWith: new Error('Invalid email or password.') });
    const session = createBackendSession({ backendUrl: URL, store, initial: null, login: counter.login });
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => session.token()));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    await expect(session.token()).rejects.toThrow('Invalid email or password.');
    expect(counter.calls).toBe(1);
    expect(await store.get(URL)).toBeNull();
  });
});
