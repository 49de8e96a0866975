import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { PublicUser } from './accounts.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
main { max-width: 26rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px;
  box-shadow: 0 1px 3px rgba(0,0,0,.12); }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
input { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; border: 1px solid #c4c9d4; border-radius: 4px; }
button { margin-top: 1.25rem; padding: .55rem 1.1rem; font-size: 1rem; border: 0; border-radius: 4px;
  background: #2952cc; color: #fff; cursor: pointer; }
button.secondary { background: #e4e7ee; color: #1d2330; }
.error { background: #fdecec; color: #8a1c1c; padding: .6rem .8rem; border-radius: 4px; }
.muted { color: #5b6478; font-size: .9rem; }
code { background: #eef0f4; padding: 0 .25rem; border-radius: 3px; }
`;

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · nao</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

function errorBox(error: string | undefined): Html | string {
  return error === undefined ? '' : html`<p class="error" role="alert">${error}</p>`;
}

export function loginPage(options: { next: string; email?: string; error?: string }): Html {
  return layout(
    'Log in',
    html`<h1>Log in to nao</h1>
${errorBox(options.error)}
<form method="post" action="/login">
  <input type="hidden" name="next" value="${options.next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Log in</button>
</form>
<p class="muted">No account yet? <a href="/signup?next=${encodeURIComponent(options.next)}">Sign up</a></p>`,
  );
}

export function signupPage(options: {
  next: string;
  email?: string;
  name?: string;
  /** The code of the invite link the page was opened with. */
  invite?: string;
  error?: string;
}): Html {
  return layout(
    'Sign up',
    html`<h1>Create your nao account</h1>
${errorBox(options.error)}
<form method="post" action="/signup">
  <input type="hidden" name="next" value="${options.next}">
  <input type="hidden" name="invite" value="${options.invite ?? ''}">
  <label for="name">Name</label>
  <input id="name" name="name" type="text" autocomplete="name" value="${options.name ?? ''}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
  <label for="password">Password <span class="muted">(8 characters or more)</span></label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8">
  <button type="submit">Sign up</button>
</form>
<p class="muted">Already have an account? <a href="/login?next=${encodeURIComponent(options.next)}">Log in</a></p>`,
  );
}

export function homePage(options: { user: PublicUser; projectName: string; owner: boolean }): Html {
  return layout(
    'Home',
    html`<h1>nao · ${options.projectName}</h1>
<p>Signed in as <strong data-testid="signed-in-as">${options.user.email}</strong>.</p>
<p class="muted">Run the test suite through this backend with <code>nao test</code>.</p>
${
  options.owner
    ? html`<form method="post" action="/invites"><button type="submit" class="secondary" data-testid="invite">Create an invite link</button></form>`
    : ''
}
<form method="post" action="/logout"><button type="submit" class="secondary">Log out</button></form>`,
  );
}

export interface AuthorizeParams {
  state: string;
  redirectUri: string;
  codeChallenge: string;
}

/**
 * The question both CLI log-in flows ask, answered by a form to `action` that carries `fields`
 * back (hidden, escaped like every value here).
 */
function approvalPage(options: { user: PublicUser; action: string; fields: Record<string, string> }): Html {
  const hidden = Object.entries(options.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return layout(
    'Approve CLI log-in',
    html`<h1>Log in the nao CLI?</h1>
<p>A <code>nao</code> command on this computer asks to act as <strong>${options.user.email}</strong>:
it will run tests and use this backend with your account.</p>
<p class="muted">Only approve if you just ran <code>nao login</code> or <code>nao test</code>.</p>
<form method="post" action="${options.action}">
  ${hidden}
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}

/** Our CLI's approval page (`/cli/authorize`, with PKCE). */
export function authorizePage(options: { user: PublicUser; params: AuthorizeParams }): Html {
  const { params } = options;
  return approvalPage({
    user: options.user,
    action: '/cli/authorize',
    fields: { state: params.state, redirect_uri: params.redirectUri, code_challenge: params.codeChallenge },
  });
}

/**
 * The approval page of the original nao's CLI (`/cli-login?port&state`), answered to
 * `POST /cli-login`, which sends the browser to that CLI's loopback callback.
 */
export function cliLoginPage(options: { user: PublicUser; port: number; state: string }): Html {
  return approvalPage({
    user: options.user,
    action: '/cli-login',
    fields: { port: String(options.port), state: options.state },
  });
}

export function invitePage(options: { url: string; expiresAt: Date }): Html {
  return layout(
    'Invite link',
    html`<h1>Invite link</h1>
<p>Send this link to the person to invite; it signs up one account, until ${options.expiresAt.toISOString().slice(0, 10)}:</p>
<p><code data-testid="invite-url">${options.url}</code></p>
<p class="muted"><a href="/">Back</a></p>`,
  );
}

export function messagePage(options: { title: string; message: string }): Html {
  return layout(options.title, html`<h1>${options.title}</h1><p>${options.message}</p>`);
}

/** Stands for this server when reading a redirect target; never contacted. */
const THIS_SERVER = 'http://nao.invalid';

/**
 * A redirect target after log-in: a path on this server only (no `//host` or absolute URL).
 * Read the way a browser reads the Location header, which drops tabs and newlines and takes
 * `\` for `/`: `/\t/evil.example` would otherwise pass a prefix check and leave the site.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, THIS_SERVER);
  } catch {
    return '/';
  }
  return url.origin === THIS_SERVER ? `${url.pathname}${url.search}${url.hash}` : '/';
}
