import type { CredentialStore, StoredLogin } from './credential-store.js';

export interface BackendSession {
  /** The current token; logs in first when there is none. */
  token(): Promise<string>;
  /**
   * A fresh token after `staleToken` was refused (401). Concurrent callers holding the same
   * stale token share one log-in; a caller whose token was already replaced gets the new one.
   */
  renew(staleToken: string): Promise<string>;
  /** The session cookie that came with `token`'s log-in, if any. */
  cookieFor(token: string): string | undefined;
}

/**
 * The session token of one backend, shared by every concurrent run of `nao test -t`: one
 * log-in at most per refusal, and every new token written to the credential store.
 */
export function createBackendSession(options: {
  backendUrl: string;
  store: CredentialStore;
  /** The stored log-in to try first, if any. */
  initial: StoredLogin | null;
  /** Logs in (password or browser); rejects when it cannot. */
  login: () => Promise<StoredLogin>;
}): BackendSession {
  let current: string | null = options.initial?.token ?? null;
  const cookies = new Map<string, string>();
  if (options.initial?.cookie !== undefined) cookies.set(options.initial.token, options.initial.cookie);
  // The log-in in flight and the token it replaces (null: the first log-in).
  let pending: { replaces: string | null; promise: Promise<string> } | null = null;

  function loginReplacing(replaces: string | null): Promise<string> {
    if (pending !== null && pending.replaces === replaces) return pending.promise;
    const promise = (async () => {
      const login = await options.login();
      await options.store.save(options.backendUrl, login);
      if (login.cookie !== undefined) cookies.set(login.token, login.cookie);
      current = login.token;
      return login.token;
    })();
    // A failed log-in stays failed for everyone who held `replaces`: no log-in storm, no lock-out.
    pending = { replaces, promise };
    return promise;
  }

  return {
    token: () => (current !== null ? Promise.resolve(current) : loginReplacing(null)),
    renew: (staleToken) =>
      current !== null && current !== staleToken ? Promise.resolve(current) : loginReplacing(staleToken),
    cookieFor: (token) => cookies.get(token),
  };
}
