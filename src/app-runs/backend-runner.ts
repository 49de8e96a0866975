/**
 * The viewer's runs: `nao test server` runs tests the way `nao test` does without --local —
 * each run through the backend's `POST /api/test/run` under the CLI's session (the one
 * `nao login` saved, or NAO_USERNAME / NAO_PASSWORD), judged here, saved to tests/outputs/.
 * The page never holds a backend credential: it talks to its own server only.
 */
import {
  BackendUnreachableError,
  callBackend,
  checkBackend,
  createBackendClient,
  createBackendSession,
  createCredentialStore,
  loginWithPassword,
  normalizeBackendUrl,
  type StoredLogin,
} from '../client/index.js';
import { loadConfig, type NaoConfig } from '../config/index.js';
import { NaoError } from '../errors/index.js';
import type { AppRunJob, AppRunnerStatus, AppRunRequest } from './app-run-types.js';
import { type CancelJobResult, createRunJobs } from './run-jobs.js';
import { startAppRun } from './start-app-run.js';

export type StartOutcome =
  | { success: true; job: AppRunJob }
  | { success: false; status: 400 | 403 | 409 | 429 | 503; error: string };

/** What the viewer's routes need to run tests; `disabledRunner` when it must not. */
export interface AppRunner {
  status(): Promise<AppRunnerStatus>;
  start(request: AppRunRequest): Promise<StartOutcome>;
  job(id: string): AppRunJob | null;
  /** Stops a running job: runs under way are aborted, what finished is saved. */
  cancel(id: string): CancelJobResult;
  close(): Promise<void>;
}

/** A runner that only says why runs are off (a viewer listening beyond this machine). */
export function disabledRunner(message: string): AppRunner {
  const status: AppRunnerStatus = {
    state: 'unavailable',
    reason: 'disabled',
    backendUrl: null,
    message,
    command: null,
  };
  return {
    status: async () => status,
    start: async () => ({ success: false, status: 503, error: message }),
    job: () => null,
    cancel: (id) => ({ success: false, status: 404, error: `No test run ${id}.` }),
    close: async () => {},
  };
}

type Session = { login: StoredLogin; user: string };

export function createBackendRunner(options: {
  projectDir: string;
  backendUrl: string;
  env: Record<string, string | undefined>;
  naoVersion: string;
  /** Whether the URL is the default one, so the hint can leave out --backend. */
  defaultBackend: boolean;
}): AppRunner {
  const backendUrl = normalizeBackendUrl(options.backendUrl);
  const { env } = options;
  const store = createCredentialStore({ env });
  const jobs = createRunJobs();
  const loginCommand = options.defaultBackend ? 'nao login' : `nao login --backend ${backendUrl}`;

  async function passwordLogin(): Promise<StoredLogin | null> {
    const { NAO_USERNAME: email, NAO_PASSWORD: password } = env;
    if (!email || !password) return null;
    const result = await loginWithPassword({ backendUrl, email, password });
    if (!result.success) return null;
    await store.save(backendUrl, result.login);
    return result.login;
  }

  async function accepted(login: StoredLogin): Promise<Session | null> {
    const { token } = login;
    const reply = await callBackend({ backendUrl, method: 'GET', path: '/api/auth/session', token });
    const email = (reply.body as { user?: { email?: unknown } } | null)?.user?.email;
    return reply.status === 200 && typeof email === 'string' ? { login, user: email } : null;
  }

  /** The stored session if the backend still accepts it, else a password log-in from the environment. */
  async function session(): Promise<Session | null> {
    const stored = await store.get(backendUrl);
    const current = stored === null ? null : await accepted(stored);
    if (current !== null) return current;
    const fresh = await passwordLogin();
    return fresh === null ? null : accepted(fresh);
  }

  async function models(token: string, config: NaoConfig): Promise<string[]> {
    const reply = await callBackend({ backendUrl, method: 'GET', path: '/api/chat/models', token });
    const listed = (reply.body as { models?: unknown } | null)?.models;
    return reply.status === 200 && Array.isArray(listed) && listed.every((model) => typeof model === 'string')
      ? listed
      : config.test.models;
  }

  type Check = { status: AppRunnerStatus; config: NaoConfig; session: Session | null };

  async function check(): Promise<Check> {
    const config = await loadConfig({ projectDir: options.projectDir, env });
    const unavailable = (
      reason: Extract<AppRunnerStatus, { state: 'unavailable' }>['reason'],
      message: string,
      command: string,
    ): Check => ({
      config,
      session: null,
      status: { state: 'unavailable', reason, backendUrl, message, command },
    });
    let health: { project: string };
    try {
      health = await checkBackend({ backendUrl });
    } catch (error) {
      if (!(error instanceof BackendUnreachableError) && !(error instanceof NaoError)) throw error;
      return unavailable(
        'no-backend',
        `No nao backend answers at ${backendUrl}. Start it in ${options.projectDir}, then check again:`,
        'nao chat',
      );
    }
    if (health.project !== config.projectName) {
      return unavailable(
        'other-project',
        `The backend at ${backendUrl} serves project "${health.project}", not "${config.projectName}". Start the backend of this project in ${options.projectDir}, or start this viewer with --backend and the URL of its backend:`,
        'nao chat',
      );
    }
    const current = await session();
    if (current === null) {
      return unavailable(
        'not-logged-in',
        `Not logged in to ${backendUrl}: the viewer runs tests under the CLI's session. Log in once in a terminal, then check again:`,
        loginCommand,
      );
    }
    return {
      config,
      session: current,
      status: {
        state: 'ready',
        mode: 'backend',
        backendUrl,
        user: current.user,
        models: await models(current.login.token, config),
      },
    };
  }

  return {
    async status() {
      return (await check()).status;
    },
    async start(request) {
      const { status, config, session: current } = await check();
      if (status.state !== 'ready' || current === null) {
        const error = status.state === 'ready' ? 'not ready' : status.message;
        return { success: false, status: 503, error };
      }
      const unknown = request.models.filter((model) => !status.models.includes(model));
      if (unknown.length > 0) {
        return {
          success: false,
          status: 400,
          error: `Model ${unknown.join(', ')} is not configured on the backend; pick one of ${status.models.join(', ')}.`,
        };
      }
      const backendSession = createBackendSession({
        backendUrl,
        store,
        initial: current.login,
        login: async () => {
          const login = await passwordLogin();
          if (login === null) {
            throw new NaoError({
              code: 'NOT_LOGGED_IN',
              message: `The session for ${backendUrl} was refused; log in again with \`${loginCommand}\`.`,
            });
          }
          return login;
        },
      });
      return startAppRun({
        jobs,
        config,
        tests: request.tests,
        models: request.models,
        client: createBackendClient({ backendUrl, session: backendSession }),
        startedFrom: 'viewer',
        naoVersion: options.naoVersion,
      });
    },
    job: (id) => jobs.get(id),
    cancel: (id) => jobs.cancel(id),
    close: () => jobs.close(),
  };
}
