/**
 * A job module for the process pool's own tests (src/process-pool/process-pool.test.ts): each
 * input names what the job does in its worker, so a test can make a job that answers, sleeps,
 * spins, throws or crashes.
 */
import { NaoError } from '../../src/errors/index.js';

export type TestJob =
  /** Answers with the worker's pid after `ms`. */
  | { kind: 'sleep'; ms: number }
  /** Blocks the worker's thread: only a kill stops it. */
  | { kind: 'spin' }
  | { kind: 'throw'; code: string }
  | { kind: 'crash' };

export async function runJob(input: unknown): Promise<unknown> {
  const job = input as TestJob;
  switch (job.kind) {
    case 'sleep':
      return new Promise((resolve) => setTimeout(() => resolve({ pid: process.pid }), job.ms));
    case 'spin':
      for (;;) {
        // Native code that never yields looks the same from outside.
      }
    case 'throw':
      throw new NaoError({ code: job.code, message: `job refused (${job.code})` });
    case 'crash':
      process.exit(3);
  }
}
