import { NaoError } from '../errors/index.js';
import type { TestRunRequest, TestRunResponse } from '../test-run/index.js';
import { type BackendCallOptions, type BackendReply, errorOf, postTestRun } from './backend-api.js';
import type { BackendSession } from './backend-session.js';
import { parseTestRunResponse } from './test-run-response.js';

/** What the runner needs of a client (the shape of `TestRunClient` in run/, which sits above this layer). */
export interface BackendTestRunClient {
  runTest(options: { request: TestRunRequest; signal: AbortSignal }): Promise<TestRunResponse>;
  close(): Promise<void>;
}

export const UNAUTHORIZED_MESSAGE = 'Unauthorized. Please check your credentials.';

/**
 * `nao test` through a backend's `POST /api/test/run`: attaches the session token; on a 401
 * logs in again once (shared with the other runs) and retries once; a second 401 fails the
 * run with "Unauthorized. Please check your credentials.".
 */
export function createBackendClient(
  options: BackendCallOptions & { session: BackendSession },
): BackendTestRunClient {
  const { backendUrl, session } = options;
  return {
    async runTest({ request, signal }) {
      const send = (token: string) =>
        postTestRun({ backendUrl, token, cookie: session.cookieFor(token), request, signal });
      let token = await session.token();
      let reply = await send(token);
      if (reply.status === 401) {
        signal.throwIfAborted();
        token = await session.renew(token);
        reply = await send(token);
        if (reply.status === 401) throw new NaoError({ code: 'UNAUTHORIZED', message: UNAUTHORIZED_MESSAGE });
      }
      return readResponse(reply);
    },
    async close() {},
  };
}

function readResponse(reply: BackendReply): TestRunResponse {
  // The backend's `error` already names the fields of a 400 and the cause of a 500.
  if (reply.status !== 200) throw new NaoError({ code: 'BACKEND_RUN_FAILED', message: errorOf(reply) });
  const parsed = parseTestRunResponse(reply.body);
  if (!parsed.success) throw new NaoError({ code: 'BACKEND_BAD_RESPONSE', message: parsed.error });
  return parsed.response;
}
