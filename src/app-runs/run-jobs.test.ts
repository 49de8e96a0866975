import { describe, expect, it } from 'vitest';
import { resultsFile, run } from '../../test-support/results/run-fixture.js';
import { createRunJobs } from './run-jobs.js';

const PROJECT = '/work/project';
const SAVED = '/work/project/tests/outputs/results_20250209_143022.json';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const request = { tests: ['total_revenue'], models: ['openai:gpt-4.1'], total: 1, projectDir: PROJECT };

describe('createRunJobs', () => {
  it('reports progress, then the saved file and every run in plan order', async () => {
    const jobs = createRunJobs();
    const finish = deferred<void>();
    let report: ((result: ReturnType<typeof run>) => void) | undefined;
    const started = jobs.start({
      ...request,
      run: async ({ onRunFinished }) => {
        report = onRunFinished;
        await finish.promise;
        return { file: resultsFile([run({ status: 'failed' })]), savedPath: SAVED };
      },
    });
    if (!started.success) throw new Error(started.error);
    expect(started.job).toMatchObject({ state: 'running', finished: 0, total: 1, file: null });
    report!(run({ status: 'failed' }));
    expect(jobs.get(started.job.id)).toMatchObject({ finished: 1, runs: [{ status: 'failed' }] });
    finish.resolve();
    await jobs.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.get(started.job.id)).toMatchObject({
      state: 'done',
      file: 'results_20250209_143022.json',
      path: 'tests/outputs/results_20250209_143022.json',
      runs: [{ name: 'total_revenue', model: 'openai:gpt-4.1', status: 'failed', message: 'values differ' }],
    });
  });

  it('refuses a second job while one runs, and takes one again after', async () => {
    const jobs = createRunJobs();
    const finish = deferred<void>();
    const first = jobs.start({
      ...request,
      run: async () => {
        await finish.promise;
        return { file: resultsFile([run()]), savedPath: SAVED };
      },
    });
    expect(first.success).toBe(true);
    const second = jobs.start({ ...request, run: async () => ({ file: resultsFile([]), savedPath: SAVED }) });
    expect(second).toEqual({
      success: false,
      reason: 'own-job',
      error: expect.stringContaining('still going'),
      retryAfterSeconds: expect.any(Number),
    });
    finish.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(
      jobs.start({ ...request, run: async () => ({ file: resultsFile([]), savedPath: SAVED }) }).success,
    ).toBe(true);
  });

  it('runs one job per owner, and at most maxRunning over all owners', () => {
    const jobs = createRunJobs({ maxRunning: 2 });
    const never = () => new Promise<never>(() => {});
    expect(jobs.start({ ...request, owner: 'ada', run: never }).success).toBe(true);
    expect(jobs.start({ ...request, owner: 'ada', run: never })).toMatchObject({ reason: 'own-job' });
    expect(jobs.start({ ...request, owner: 'bob', run: never }).success).toBe(true);
    expect(jobs.start({ ...request, owner: 'cy', run: never })).toMatchObject({
      success: false,
      reason: 'server-busy',
      retryAfterSeconds: expect.any(Number),
    });
  });

  it('shows a job to its owner only', () => {
    const jobs = createRunJobs();
    const started = jobs.start({
      ...request,
      owner: 'user-1',
      run: () => new Promise(() => undefined),
    });
    if (!started.success) throw new Error(started.error);
    expect(jobs.get(started.job.id, 'user-1')).not.toBeNull();
    expect(jobs.get(started.job.id, 'user-2')).toBeNull();
    expect(jobs.get(started.job.id)).toBeNull();
    expect(jobs.get('no-such-job', 'user-1')).toBeNull();
  });

  it('records why a job failed', async () => {
    const jobs = createRunJobs();
    const started = jobs.start({
      ...request,
      run: async () => {
        throw new Error('Could not write the results file: disk full');
      },
    });
    if (!started.success) throw new Error(started.error);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(jobs.get(started.job.id)).toMatchObject({
      state: 'failed',
      error: 'Could not write the results file: disk full',
    });
  });

  it('close() aborts the running job and waits for it to save', async () => {
    const jobs = createRunJobs();
    let saved = false;
    const started = jobs.start({
      ...request,
      run: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            saved = true;
            resolve({ file: resultsFile([run({ status: 'skipped' })]), savedPath: SAVED });
          });
        }),
    });
    if (!started.success) throw new Error(started.error);
    await jobs.close();
    expect(saved).toBe(true);
    expect(jobs.get(started.job.id)).toMatchObject({ state: 'done', runs: [{ status: 'skipped' }] });
  });
});
