import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptCredentials } from './prompt-credentials.js';

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => {
    shown += chunk;
  });
  return { input, output, shown: () => shown };
}

describe('promptCredentials', () => {
  it('reads the email and the password, and never shows the password', async () => {
    const io = streams();
    const answer = promptCredentials({ input: io.input, output: io.output });
    io.input.write(' ada@example.com \n');
    io.input.write('pw-prompt-5521\n');
    expect(await answer).toEqual({ email: 'ada@example.com', password: 'pw-prompt-5521' });
    expect(io.shown()).toContain('Email: ');
    expect(io.shown()).toContain('Password (not shown): ');
    expect(io.shown()).not.toContain('pw-prompt-5521');
  });

  it('hides the password typed on a terminal while echoing the email', async () => {
    const io = streams();
    const input = Object.assign(io.input, { isTTY: true, setRawMode: () => input });
    const answer = promptCredentials({ input, output: io.output });
    for (const char of 'ada@example.com\r') input.write(char);
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const char of 'pw-tty-9080\r') input.write(char);
    expect(await answer).toEqual({ email: 'ada@example.com', password: 'pw-tty-9080' });
    expect(io.shown()).toContain('ada@example.com');
    expect(io.shown()).not.toContain('pw-tty');
  });

  it.each([
    ['before the email', ''],
    ['before the password', 'ada@example.com\n'],
  ])('resolves null when the input ends %s', async (_label, typed) => {
    const io = streams();
    const answer = promptCredentials({ input: io.input, output: io.output });
    io.input.end(typed);
    expect(await answer).toBeNull();
  });

  it('stops asking when the browser log-in won (signal aborted)', async () => {
    const io = streams();
    const controller = new AbortController();
    const answer = promptCredentials({ input: io.input, output: io.output, signal: controller.signal });
    controller.abort();
    expect(await answer).toBeNull();
  });
});
