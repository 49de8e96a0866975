import { NaoError } from '../errors/index.js';

/**
 * Password hashing (scrypt, 32 MB and ~0.2 s each) runs on libuv's thread pool, which file
 * reads and writes share: four threads by default. Unbounded, a burst of log-ins fills the pool
 * and a save-as-test waits seconds for it. The queue lets `concurrency` hashes run at once (the
 * rest of the pool stays free for files) and keeps a bounded wait list; past it the request is
 * refused with a hint of when to try again instead of piling up memory and latency.
 */
export interface PasswordQueue {
  /** Runs `work` when a slot is free; throws PasswordQueueFullError when the wait list is full. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export interface PasswordQueueLimits {
  /** Hashes at once; keep it below the thread pool's size (UV_THREADPOOL_SIZE, default 4). */
  concurrency: number;
  /** Requests waiting for a slot before the next is refused. */
  maxWaiting: number;
}

export const DEFAULT_PASSWORD_QUEUE_LIMITS: PasswordQueueLimits = Object.freeze({
  concurrency: 2,
  maxWaiting: 16,
});

/** Too many log-ins and sign-ups waiting: answered 503 with Retry-After. */
export class PasswordQueueFullError extends NaoError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super({
      code: 'SERVER_BUSY',
      message: `The server is busy checking other passwords. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Until one has been timed: scrypt with better-auth's settings on a modest machine. */
const FIRST_GUESS_MS = 250;

export function createPasswordQueue(
  limits: PasswordQueueLimits = DEFAULT_PASSWORD_QUEUE_LIMITS,
): PasswordQueue {
  let running = 0;
  const waiting: (() => void)[] = [];
  let averageMs = FIRST_GUESS_MS;

  const release = () => {
    running--;
    const next = waiting.shift();
    if (next !== undefined) {
      running++;
      next();
    }
  };

  return {
    async run(work) {
      if (running >= limits.concurrency) {
        if (waiting.length >= limits.maxWaiting) {
          // By then the queue ahead has drained: its length times a hash, shared by the slots.
          const seconds = ((waiting.length + running) * averageMs) / limits.concurrency / 1000;
          throw new PasswordQueueFullError(Math.max(1, Math.ceil(seconds)));
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      const started = performance.now();
      try {
        return await work();
      } finally {
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        release();
      }
    },
  };
}
