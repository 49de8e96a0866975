/**
 * The parent's handle on one sandbox process (sandbox-query-process.ts): requests by id, many
 * at a time, and a deadline per query past which the whole process is killed. Every live
 * process is killed when nao exits, and exits by itself when its channel to nao closes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { NaoError } from '../errors/index.js';
import { childModule, childReady, holdOpen } from '../warehouse/index.js';
import type { LoadedTable } from './load-tables.js';
import { createSandboxFolder } from './sandbox-folders.js';
import type {
  InterruptMessage,
  ProcessQueryOutcome,
  SandboxReply,
  SandboxRequest,
  SandboxRequestBody,
} from './sandbox-protocol.js';

const QUERY_PROCESS = childModule(import.meta.url, 'sandbox-query-process');

/**
 * The JavaScript heap of a sandbox process, in MiB: room for the largest answers nao accepts
 * (a million rows of a few columns), and a bound on one that DuckDB's memory limit does not see.
 */
export const SANDBOX_HEAP_MIB = 2048;

/**
 * Each DuckDB query holds a thread of libuv's pool while it runs: with the default four, four
 * queries that ignore their interrupt would stall every other sandbox's query until they are
 * killed. Idle threads cost next to nothing.
 */
const SANDBOX_THREADPOOL_SIZE = 64;

/** Why a request never got its reply. */
export type LostReason =
  /** This query outlived its deadline and its process was killed. */
  | 'own-deadline'
  /** Another query in the same process outlived its deadline. */
  | 'other-deadline'
  /** The process ended by itself (a crash, most likely out of memory). */
  | 'crashed'
  /** The process was closed. */
  | 'closed';

export class SandboxProcessLost extends Error {
  constructor(
    message: string,
    readonly reason: LostReason,
  ) {
    super(message);
  }
}

/** Live processes, with the folder each one's engines use. */
const live = new Map<ChildProcess, string>();
let exitHookInstalled = false;

function killOnExit(child: ChildProcess, dir: string): void {
  live.set(child, dir);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A child stuck in native code would outlive nao otherwise; killed, it leaves its folder.
  process.once('exit', () => {
    for (const [running, folder] of live) {
      running.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** A query's own time limit, as `performance.now()`: past it, it has ignored its interrupt. */
  overdueAt?: number;
}

export class SandboxProcess {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private exited = false;
  private closing = false;
  /** The query whose deadline killed the process. */
  private killedFor: number | null = null;
  private stderr = '';
  private readonly exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    this.exit = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      // Only the tail matters: it holds the reason of a crash.
      this.stderr = (this.stderr + text).slice(-2000);
    });
    child.on('message', (reply: SandboxReply) => {
      if (reply.kind === 'ready') return;
      const pending = this.pending.get(reply.id);
      if (pending === undefined) return;
      this.settle(reply.id);
      if (reply.kind === 'done') pending.resolve(reply.value);
      else
        pending.reject(
          reply.code === undefined
            ? new Error(reply.message)
            : new NaoError({ code: reply.code, message: reply.message }),
        );
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      rmSync(this.dir, { recursive: true, force: true });
      const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
      const detail =
        this.stderr.trim() === '' ? '' : `: ${this.stderr.trim().split('\n').slice(-3).join(' ')}`;
      const now = performance.now();
      for (const [id, pending] of this.pending) {
        // A query past its own limit when the process was killed had ignored its interrupt
        // too: it is no victim to re-run, whoever's deadline came first.
        const overdue = pending.overdueAt !== undefined && now >= pending.overdueAt;
        const reason: LostReason = this.closing
          ? 'closed'
          : this.killedFor === null
            ? 'crashed'
            : this.killedFor === id || overdue
              ? 'own-deadline'
              : 'other-deadline';
        pending.reject(new SandboxProcessLost(`the sandbox process ended (${how})${detail}`, reason));
      }
      this.pending.clear();
    });
  }

  /** Starts a process and waits until it listens. */
  static start(): Promise<SandboxProcess> {
    const dir = createSandboxFolder('sandboxes');
    const child = fork(QUERY_PROCESS.entry, [dir], {
      execArgv: [`--max-old-space-size=${SANDBOX_HEAP_MIB}`, ...QUERY_PROCESS.execArgv],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, UV_THREADPOOL_SIZE: String(SANDBOX_THREADPOOL_SIZE) },
    });
    killOnExit(child, dir);
    const handle = new SandboxProcess(child, dir);
    return childReady<SandboxReply>(child, {
      ended: () =>
        new SandboxProcessLost(
          `the sandbox process ended before it started: ${handle.stderr.trim()}`,
          'crashed',
        ),
    }).then(
      () => {
        holdOpen(child, false);
        return handle;
      },
      (error: unknown) => {
        // Spawned but not listening, or never spawned: either way it must not linger.
        child.kill('SIGKILL');
        throw error;
      },
    );
  }

  get alive(): boolean {
    return !this.exited && !this.closing;
  }

  request(body: Extract<SandboxRequestBody, { kind: 'open' }>): Promise<LoadedTable[]>;
  request(body: Extract<SandboxRequestBody, { kind: 'prepare' | 'open-file' | 'close' }>): Promise<null>;
  request(body: SandboxRequestBody): Promise<unknown> {
    return this.send(body).promise;
  }

  /**
   * Runs a query. Past `deadlineMs` the process is killed with everything in it; on abort the
   * query is interrupted, and the process killed if it has not stopped `graceMs` later.
   */
  async query(
    body: Extract<SandboxRequestBody, { kind: 'query' }>,
    options: { deadlineMs: number; graceMs: number; signal?: AbortSignal | undefined },
  ): Promise<ProcessQueryOutcome> {
    const { id, promise } = this.send(body, performance.now() + body.timeoutMs);
    const kill = () => this.kill(id);
    let deadline = setTimeout(kill, options.deadlineMs);
    const abort = () => {
      this.interrupt(body.sandbox);
      clearTimeout(deadline);
      deadline = setTimeout(kill, options.graceMs);
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      return (await promise) as ProcessQueryOutcome;
    } finally {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** Kills the process at once; `culprit` names the request whose deadline passed. */
  kill(culprit?: number): void {
    if (this.exited) return;
    if (culprit !== undefined && this.killedFor === null) this.killedFor = culprit;
    this.child.kill('SIGKILL');
  }

  /** Asks the process to exit and waits for it; kills it if it does not. */
  async close(): Promise<void> {
    if (this.exited) return;
    this.closing = true;
    // Waited for: an idle process is unreferenced, and the wait would otherwise hold nothing.
    this.child.ref();
    if (this.pending.size > 0) this.kill();
    else if (this.child.connected) this.child.disconnect();
    const timer = setTimeout(() => this.kill(), 2000);
    timer.unref();
    await this.exit;
    clearTimeout(timer);
  }

  private interrupt(sandbox: number): void {
    if (this.exited || !this.child.connected) return;
    const message: InterruptMessage = { kind: 'interrupt', sandbox };
    this.child.send(message, () => undefined);
  }

  private send(body: SandboxRequestBody, overdueAt?: number): { id: number; promise: Promise<unknown> } {
    const id = this.nextId++;
    if (this.exited || this.closing) {
      return {
        id,
        promise: Promise.reject(new SandboxProcessLost('the sandbox process has ended', 'closed')),
      };
    }
    const promise = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...(overdueAt === undefined ? {} : { overdueAt }) });
      holdOpen(this.child, true);
      this.child.send({ ...body, id } as SandboxRequest, (error) => {
        if (error && this.pending.has(id)) {
          this.settle(id);
          reject(error);
        }
      });
    });
    return { id, promise };
  }

  private settle(id: number): void {
    this.pending.delete(id);
    // An idle process must not keep nao running; one with a request in flight must.
    if (this.pending.size === 0) holdOpen(this.child, false);
  }
}
