import type { Hono } from 'hono';
import { type RunJobs, runRequestSchema, startAppRun } from '../app-runs/index.js';
import { type ProjectRuntime, runTestRequest, type TestRunClient } from '../pipeline/index.js';
import type { SessionEnv } from './accounts.js';
import { chatModels } from './chat-routes.js';
import { parseJsonBody } from './request-body.js';
import { runtimeModel } from './runtime-model.js';

/**
 * `POST /api/tests/runs` and `GET /api/tests/runs/:id`: the chat's Save as test runs the new
 * test at once. Each run goes through `runTestRequest` on this backend's runtime — what
 * `POST /api/test/run` answers with — is judged by the same code as `nao test`, and lands
 * in tests/outputs/. A job is visible to the user who started it only.
 */
export function registerAppRunRoutes(
  app: Hono<SessionEnv>,
  options: { runtime: ProjectRuntime; jobs: RunJobs; version: string; log: (line: string) => void },
): void {
  const { runtime, jobs, log } = options;
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
    const started = await startAppRun({
      jobs,
      config: runtime.config,
      tests: names,
      models,
      client,
      startedFrom: 'chat',
      naoVersion: options.version,
      owner: user.id,
    });
    if (!started.success) return c.json({ error: started.error }, started.status);
    const { job } = started;
    log(`${user.email} started ${job.total} test run(s): ${job.tests.join(', ')} on ${models.join(', ')}`);
    return c.json({ job }, 202);
  });

  app.get('/api/tests/runs/:id', (c) => {
    const job = jobs.get(c.req.param('id'), c.get('session').user.id);
    return job === null ? c.json({ error: `No test run ${c.req.param('id')}.` }, 404) : c.json({ job });
  });
}
