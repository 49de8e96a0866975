import type { Hono } from 'hono';
import { type AppRunJob, type RunJobs, runRequestSchema, startAppRun } from '../app-runs/index.js';
import { type ProjectRuntime, runTestRequest, type TestRunClient } from '../test-run/index.js';
import type { AccountRole, SessionEnv } from './accounts.js';
import { chatModels } from './chat-routes.js';
import { checkReferenceAccess } from './reference-access.js';
import { parseJsonBody } from './request-body.js';
import { runtimeModel } from './runtime-model.js';

/**
 * `POST /api/tests/runs`, `GET /api/tests/runs/:id` and `DELETE /api/tests/runs/:id` (cancel):
 * the chat's Save as test runs the new test at once. Each run goes through `runTestRequest` on this backend's runtime — what
 * `POST /api/test/run` answers with — is judged by the same code as `nao test`, and lands
 * in tests/outputs/. A job is visible to the user who started it only; each user runs one job at
 * a time, the server MAX_RUNNING_JOBS of them.
 */
export function registerAppRunRoutes(
  app: Hono<SessionEnv>,
  options: {
    runtime: ProjectRuntime;
    jobs: RunJobs;
    version: string;
    log: (line: string) => void;
    roleOf: (userId: string) => Promise<AccountRole>;
    /** Takes the server's folders out of a job's error (wire-paths.ts). */
    scrubPaths: (text: string) => string;
  },
): void {
  const { runtime, jobs, log } = options;
  const publicJob = (job: AppRunJob): AppRunJob =>
    job.error === null ? job : { ...job, error: options.scrubPaths(job.error) };
  // The runtime is the server's: a job must never close it.
  const client: TestRunClient = {
    runTest: ({ request, signal, onSpending }) => runTestRequest({ runtime, request, signal, onSpending }),
    close: async () => {},
  };

  app.post('/api/tests/runs', async (c) => {
    const body = await parseJsonBody(c, runRequestSchema);
    if (!body.success) return body.response;
    const { tests: names, models } = body.data;
    const offered = chatModels(runtime.config);
    for (const model of models) {
      if (!offered.includes(model)) {
        return c.json({ error: `Model ${model} is not configured; pick one of ${offered.join(', ')}.` }, 400);
      }
      const resolved = runtimeModel(runtime, model);
      if (!resolved.success) return c.json({ error: resolved.error }, 400);
    }
    const user = c.get('session').user;
    const member = (await options.roleOf(user.id)) !== 'owner';
    const started = await startAppRun({
      jobs,
      config: runtime.config,
      tests: names,
      models,
      client,
      startedFrom: 'chat',
      naoVersion: options.version,
      owner: user.id,
      // A member's runs read what the agent may read, reference SQL included (as /api/test/run).
      vetTests: member
        ? async (tests) => {
            for (const test of tests) {
              if (test.sql === null) continue;
              const access = await checkReferenceAccess({
                runtime,
                sql: test.sql,
                databaseName: test.database,
              });
              if (!access.allowed) return `Test ${test.name}: ${access.reason}`;
            }
            return null;
          }
        : undefined,
    });
    if (!started.success) {
      // Over the network the account's one job at a time is a rate limit like the server's.
      if (started.retryAfterSeconds !== undefined) c.header('Retry-After', String(started.retryAfterSeconds));
      const status = started.status === 409 ? 429 : started.status;
      return c.json({ error: started.error }, status);
    }
    const { job } = started;
    log(`${user.email} started ${job.total} test run(s): ${job.tests.join(', ')} on ${models.join(', ')}`);
    return c.json({ job }, 202);
  });

  app.get('/api/tests/runs/:id', (c) => {
    const job = jobs.get(c.req.param('id'), c.get('session').user.id);
    return job === null
      ? c.json({ error: `No test run ${c.req.param('id')}.` }, 404)
      : c.json({ job: publicJob(job) });
  });
  // Cancel: the runs under way are aborted and the job saves what finished, as after Ctrl-C.
  app.delete('/api/tests/runs/:id', (c) => {
    const user = c.get('session').user;
    const cancelled = jobs.cancel(c.req.param('id'), user.id);
    if (!cancelled.success) return c.json({ error: cancelled.error }, cancelled.status);
    log(`${user.email} cancelled test run ${cancelled.job.id}`);
    return c.json({ job: publicJob(cancelled.job) }, 202);
  });
}
