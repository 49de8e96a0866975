import { describe, expect, it } from 'vitest';
import { createPasswordQueue, PasswordQueueFullError } from './password-queue.js';

describe('createPasswordQueue', () => {
  it('runs at most `concurrency` at once, keeps `maxWaiting` waiting and refuses the rest', async () => {
    const queue = createPasswordQueue({ concurrency: 2, maxWaiting: 3 });
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      new Promise<string>((resolve) => {
        running++;
        most = Math.max(most, running);
        releases.push(() => {
          running--;
          resolve('hashed');
        });
      });
    const runs = Array.from({ length: 7 }, () => queue.run(work).catch((error: unknown) => error));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(running).toBe(2);
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const outcomes = await Promise.all(runs);
    expect(most).toBe(2);
    expect(outcomes.filter((outcome) => outcome === 'hashed')).toHaveLength(5);
    const refused = outcomes.filter((outcome) => outcome instanceof PasswordQueueFullError);
    expect(refused).toHaveLength(2);
    expect((refused[0] as PasswordQueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('frees the slot when the work throws', async () => {
    const queue = createPasswordQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(() => Promise.reject(new Error('bad hash')))).rejects.toThrow('bad hash');
    await expect(queue.run(async () => 'next')).resolves.toBe('next');
  });
});
