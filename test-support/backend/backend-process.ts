import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../cli/example-project.js';

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface BackendProcess {
  url: string;
  /** Everything the server printed so far. */
  output(): string;
  /** Sends Ctrl-C (SIGINT) and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, for a server that no longer answers Ctrl-C; resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * `node bin/nao.js chat --port <free>` in a project folder, as a user starts it (dist/ must be
 * built). Resolves once it prints its URL; rejects with its output if it exits first.
 */
export async function startBackendProcess(options: {
  cwd: string;
  env?: Record<string, string>;
  /** Default: a free one. */
  port?: number;
}): Promise<BackendProcess> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'bin', 'nao.js'), 'chat', '--port', String(port)],
    {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`nao chat did not start within 30 s:\n${output}`)),
      30_000,
    );
    const onData = () => {
      if (output.includes(`serving project`)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`nao chat exited with ${code} before serving:\n${output}`));
    });
  });
  if (!output.includes(url)) throw new Error(`nao chat printed no ${url}:\n${output}`);
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
