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
    let cancelled = false;
    const finish = () => {
      signal?.removeEventListener('abort', finish);
      lines.close();
    };
    if (signal?.aborted) {
      finish();
      resolve(null);
      return;
    }
    signal?.addEventListener('abort', finish, { once: true });
    lines.on('SIGINT', () => {
      cancelled = true;
      finish();
    });

    // Buffers lines that arrive before they are asked for (piped input); ends when the input closes.
    const typed = lines[Symbol.asyncIterator]();
    const next = async (): Promise<string | null> => {
      const line = await typed.next();
      return line.done ? null : line.value;
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
