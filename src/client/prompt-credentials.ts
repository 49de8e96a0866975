import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { NaoError } from '../errors/index.js';

export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * Asks for an email and a password on the terminal; the password is not echoed. Resolves
 * null when the input ends first or `signal` aborts (the browser log-in won). Ctrl-C cancels.
 */
export function promptCredentials(
  options: PromptStreams & { signal?: AbortSignal },
): Promise<{ email: string; password: string } | null> {
  const { input, output, signal } = options;
  let muted = false;
  // readline echoes what is typed through this stream; while muted the password stays unseen.
  const echo = new Writable({
    write(chunk, encoding, callback) {
      if (!muted) output.write(chunk, encoding);
      callback();
    },
  });
  const lines = createInterface({ input, output: echo, terminal: input.isTTY === true });
  lines.setPrompt('');

  return new Promise((resolve, reject) => {
    const queued: string[] = [];
    let waiting: ((line: string | null) => void) | null = null;
    let closed = false;
    let cancelled = false;

    const finish = () => {
      signal?.removeEventListener('abort', onAbort);
      lines.close();
    };
    const onAbort = () => finish();
    if (signal?.aborted) {
      finish();
      resolve(null);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    lines.on('line', (line) => {
      if (waiting === null) queued.push(line);
      else {
        const deliver = waiting;
        waiting = null;
        deliver(line);
      }
    });
    lines.on('close', () => {
      closed = true;
      waiting?.(null);
      waiting = null;
    });
    lines.on('SIGINT', () => {
      cancelled = true;
      finish();
    });

    const next = (): Promise<string | null> => {
      if (queued.length > 0) return Promise.resolve(queued.shift()!);
      if (closed) return Promise.resolve(null);
      return new Promise((deliver) => {
        waiting = deliver;
      });
    };

    (async () => {
      output.write('Email: ');
      const email = await next();
      if (email === null || cancelled) return null;
      output.write('Password (not shown): ');
      muted = true;
      const password = await next();
      muted = false;
      output.write('\n');
      if (password === null || cancelled) return null;
      return { email: email.trim(), password };
    })().then(
      (credentials) => {
        finish();
        if (cancelled) reject(new NaoError({ code: 'LOGIN_CANCELLED', message: 'Log-in cancelled.' }));
        else resolve(credentials);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}
