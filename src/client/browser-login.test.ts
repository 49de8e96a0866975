import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserLogin } from './browser-login.js';

/** A stand-in backend for the token exchange and the password log-in. */
const fake = {
  challenge: '',
  exchangeError: null as string | null,
  passwordLogins: [] as string[],
};
let server: Server;
let backendUrl: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
    const send = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    };
    if (request.url === '/api/cli/token') {
      if (fake.exchangeError !== null) return send(400, { error: fake.exchangeError });
      const verified = createHash('sha256').update(body.codeVerifier).digest('base64url') === fake.challenge;
      if (body.code !== 'code-1' || !verified) return send(400, { error: 'bad code or verifier' });
      return send(200, { token: 'cli-token', user: { email: 'ada@example.com' } });
    }
    if (request.url === '/api/auth/login') {
      fake.passwordLogins.push(body.email);
      if (body.password !== 'pw-right-3141') return send(401, { error: 'Invalid email or password.' });
      return send(200, { token: 'password-token', user: { email: body.email } });
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  Object.assign(fake, { challenge: '', exchangeError: null, passwordLogins: [] });
});

function output() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  return { out, text: () => text };
}

/** What the browser would do on the approval page: read the link, then call the CLI back. */
function browser(act: (link: URL) => Promise<void>) {
  const pages: { status: number; text: string }[] = [];
  const opened: string[] = [];
  let acted: Promise<void> = Promise.resolve();
  return {
    pages,
    opened,
    /** Settles once every page the browser was sent back to has loaded. */
    done: () => acted,
    open: async (url: string) => {
      opened.push(url);
      const link = new URL(url);
      fake.challenge = link.searchParams.get('code_challenge')!;
      acted = act(link).catch(() => {});
      return true;
    },
    async callback(link: URL, params: Record<string, string>) {
      const target = new URL(link.searchParams.get('redirect_uri')!);
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      const response = await fetch(target);
      pages.push({ status: response.status, text: await response.text() });
    },
  };
}

describe('browserLogin', () => {
  it('refuses a callback with another state, then exchanges the approved code', async () => {
    const { out, text } = output();
    const chrome = browser(async (link) => {
      await chrome.callback(link, { state: 'forged-state', code: 'code-1' });
      await chrome.callback(link, { state: link.searchParams.get('state')!, code: 'code-1' });
    });
    const login = await browserLogin({ backendUrl, openBrowser: chrome.open, out });
    expect(login).toMatchObject({ token: 'cli-token', email: 'ada@example.com' });
    await chrome.done();
    expect(chrome.pages[0]).toMatchObject({ status: 400, text: expect.stringContaining('does not match') });
    expect(chrome.pages[1]).toMatchObject({
      status: 200,
      text: expect.stringContaining('logged in as ada@example.com'),
    });
    const link = new URL(chrome.opened[0]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${backendUrl}/cli/authorize`);
    expect(link.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(text()).toContain(chrome.opened[0]);
    expect(text()).toContain('Refused a log-in callback whose state does not match');
  });

  it('uses a new state and a new port for every log-in', async () => {
    const links: URL[] = [];
    for (let i = 0; i < 2; i++) {
      const chrome = browser(async (link) => {
        links.push(link);
        await chrome.callback(link, { state: link.searchParams.get('state')!, code: 'code-1' });
      });
      await browserLogin({ backendUrl, openBrowser: chrome.open, out: output().out });
    }
    expect(links[0]!.searchParams.get('state')).not.toBe(links[1]!.searchParams.get('state'));
    expect(links[0]!.searchParams.get('code_challenge')).not.toBe(
      links[1]!.searchParams.get('code_challenge'),
    );
  });

  it('fails with the backend reason when the code is refused (expired, reused)', async () => {
    fake.exchangeError = 'This log-in code has expired (codes are valid 5 minutes). Run `nao login` again.';
    const chrome = browser((link) =>
      chrome.callback(link, { state: link.searchParams.get('state')!, code: 'code-1' }),
    );
    await expect(
      browserLogin({ backendUrl, openBrowser: chrome.open, out: output().out }),
    ).rejects.toMatchObject({
      code: 'LOGIN_FAILED',
      message: expect.stringContaining('has expired'),
    });
    await chrome.done();
    expect(chrome.pages[0]).toMatchObject({ status: 400, text: expect.stringContaining('has expired') });
  });

  it('fails when the user denies in the browser', async () => {
    const chrome = browser((link) =>
      chrome.callback(link, { state: link.searchParams.get('state')!, error: 'access_denied' }),
    );
    await expect(
      browserLogin({ backendUrl, openBrowser: chrome.open, out: output().out }),
    ).rejects.toMatchObject({
      code: 'LOGIN_DENIED',
    });
  });

  it('times out with a clear message', async () => {
    const chrome = browser(async () => {});
    await expect(
      browserLogin({ backendUrl, openBrowser: chrome.open, out: output().out, timeoutMs: 300 }),
    ).rejects.toMatchObject({
      code: 'LOGIN_TIMEOUT',
      message: expect.stringMatching(/^Timed out after 0\.3 seconds waiting for the log-in in the browser\./),
    });
  });

  it('Ctrl-C stops the wait', async () => {
    const controller = new AbortController();
    const chrome = browser(async () => {
      controller.abort();
    });
    await expect(
      browserLogin({ backendUrl, openBrowser: chrome.open, out: output().out, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'LOGIN_CANCELLED', message: 'Log-in cancelled.' });
  });

  it('with no browser, prints the link and logs in with the prompted email and password', async () => {
    const { out, text } = output();
    const answers = [
      { email: 'ada@example.com', password: 'pw-wrong-2718' },
      { email: 'ada@example.com', password: 'pw-right-3141' },
    ];
    const login = await browserLogin({
      backendUrl,
      openBrowser: async () => false,
      promptCredentials: async () => answers.shift() ?? null,
      out,
    });
    expect(login).toMatchObject({ token: 'password-token', email: 'ada@example.com' });
    expect(fake.passwordLogins).toHaveLength(2);
    expect(text()).toContain(`${backendUrl}/cli/authorize?`);
    expect(text()).toContain('No browser could be opened');
    expect(text()).toContain('Log-in failed: Invalid email or password.');
    expect(text()).not.toMatch(/pw-(wrong|right)/);
  });

  it('with no browser and nothing to read, says how to log in without one', async () => {
    await expect(
      browserLogin({
        backendUrl,
        openBrowser: async () => false,
        promptCredentials: async () => null,
        out: output().out,
      }),
    ).rejects.toMatchObject({ code: 'LOGIN_REQUIRED', message: expect.stringContaining('NAO_USERNAME') });
  });
});
