/**
 * The viewer's HTTP app: the JSON API over `tests/outputs/` and the built web UI. Kept apart
 * from the listening server so the routes can be exercised with `app.request()`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Context, Hono } from 'hono';
import { type AppRunner, disabledRunner } from '../app-runs/backend-runner.js';
import { runRequestSchema } from '../app-runs/index.js';
import { messageOf } from '../errors/index.js';
import type { ApiError, FileListResponse, RunDetailResponse } from './api-types.js';
import { compareForViewer } from './compare-files.js';
import { hasDotSegments } from './file-name.js';
import type { LoadOutcome, ResultsStore } from './results-store.js';

/** The raw request, when served by @hono/node-server: its URL is not normalised yet. */
type Bindings = { incoming?: { url?: string } };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Everything the page loads comes from this server: model output rendered by the UI can
 * never pull a script, an image or a request from elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface ViewerAppOptions {
  store: ResultsStore;
  /** The built web UI (index.html and assets/). */
  assetsDir: string;
  /**
   * Host names the Host header may carry (without port); others get 403, so a web page
   * cannot reach a loopback server through DNS rebinding. null accepts any host.
   */
  allowedHosts: readonly string[] | null;
  /** Runs tests for the page's Run again; without it the page says runs are not available. */
  runner?: AppRunner;
}

const NO_RUNNER_MESSAGE =
  'This viewer cannot run tests: start it with nao test server in the project folder.';

/**
 * Requests that change something (start a run, which costs money) must come from the viewer's
 * own page: JSON only (a cross-site form cannot send it without a CORS preflight, which this
 * server never grants) and, when the browser says where it comes from, from this origin.
 */
function crossSiteWrite(c: Context): Response | null {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    return apiError(c, 415, 'Send the body as JSON (Content-Type: application/json).');
  }
  return crossSiteRequest(c);
}

/** A request from another origin (a form cannot send DELETE, but a script's fetch can try). */
function crossSiteRequest(c: Context): Response | null {
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  const sameOrigin =
    (origin === undefined || hostOf(origin) === c.req.header('host')) &&
    (site === undefined || site === 'same-origin');
  return sameOrigin
    ? null
    : apiError(c, 403, 'Runs can only be started or cancelled from the viewer page itself.');
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function apiError(
  c: Context,
  status: 400 | 403 | 404 | 409 | 415 | 422 | 500 | 503,
  error: string,
): Response {
  return c.json({ error } satisfies ApiError, status);
}

function jsonText(c: Context, text: string): Response {
  return c.body(text, 200, { 'content-type': 'application/json; charset=utf-8' });
}

function failed(c: Context, outcome: Extract<LoadOutcome, { success: false }>): Response {
  return apiError(c, outcome.status, outcome.error);
}

function hostName(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}

export function createViewerApp(options: ViewerAppOptions): Hono<{ Bindings: Bindings }> {
  const { store, assetsDir } = options;
  const runner = options.runner ?? disabledRunner(NO_RUNNER_MESSAGE);
  const app = new Hono<{ Bindings: Bindings }>();

  app.use('*', async (c, next) => {
    c.header('content-security-policy', CONTENT_SECURITY_POLICY);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    if (options.allowedHosts !== null) {
      const host = hostName(c.req.header('host') ?? '');
      if (!options.allowedHosts.includes(host)) {
        return apiError(c, 403, `Host "${host}" is not served; open the viewer through its own address.`);
      }
    }
    // URL parsing resolves dot segments before routing; the raw path still shows them.
    const rawPath = c.env?.incoming?.url ?? new URL(c.req.url).pathname;
    if (hasDotSegments(rawPath) || hasDotSegments(c.req.path)) {
      return apiError(c, 400, 'Invalid path: dot segments and backslashes are not accepted.');
    }
    await next();
  });

  app.onError((error, c) => apiError(c, 500, messageOf(error)));

  app.get('/api/files', async (c) => {
    const files = await store.list();
    return c.json({ outputsDir: store.outputsDir, files } satisfies FileListResponse);
  });

  app.get('/api/files/:name', async (c) => {
    const outcome = await store.load(c.req.param('name'));
    return outcome.success ? jsonText(c, outcome.loaded.json()) : failed(c, outcome);
  });

  app.get('/api/files/:name/overview', async (c) => {
    const outcome = await store.load(c.req.param('name'));
    return outcome.success ? jsonText(c, outcome.loaded.overviewJson()) : failed(c, outcome);
  });

  app.get('/api/files/:name/runs/:index', async (c) => {
    const rawIndex = c.req.param('index');
    if (!/^\d{1,9}$/.test(rawIndex)) {
      return apiError(
        c,
        400,
        `Invalid run index "${rawIndex}": use the run's position in results (0, 1, …).`,
      );
    }
    const outcome = await store.load(c.req.param('name'));
    if (!outcome.success) return failed(c, outcome);
    const { file, name } = outcome.loaded;
    const index = Number(rawIndex);
    const run = file.results[index];
    if (run === undefined) {
      return apiError(c, 404, `${name} has ${file.results.length} runs; there is no run ${index}.`);
    }
    return c.json({ file: name, index, total: file.results.length, run } satisfies RunDetailResponse);
  });

  // A name with a slash (encoded or not) lands here rather than on a file route.
  app.all('/api/files/*', (c) =>
    apiError(c, 400, 'Invalid results file name: it must be a file directly inside tests/outputs/.'),
  );

  app.get('/api/compare', async (c) => {
    const beforeName = c.req.query('before');
    const afterName = c.req.query('after');
    if (!beforeName || !afterName) {
      return apiError(c, 400, 'Name both files to compare: /api/compare?before=<file>&after=<file>.');
    }
    const before = await store.load(beforeName);
    if (!before.success) return failed(c, before);
    const after = await store.load(afterName);
    if (!after.success) return failed(c, after);
    return c.json(
      compareForViewer({
        before: { name: beforeName, file: before.loaded.file },
        after: { name: afterName, file: after.loaded.file },
      }),
    );
  });

  app.get('/api/history', async (c) => c.json(await store.history()));

  app.get('/api/app-runs/status', async (c) => c.json(await runner.status()));

  app.post('/api/app-runs', async (c) => {
    const refused = crossSiteWrite(c);
    if (refused !== null) return refused;
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return apiError(c, 400, 'The body is not valid JSON.');
    }
    const parsed = runRequestSchema.safeParse(body);
    if (!parsed.success) {
      return apiError(
        c,
        400,
        `Invalid run request: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.`,
      );
    }
    const started = await runner.start(parsed.data);
    if (!started.success) return c.json({ error: started.error } satisfies ApiError, started.status);
    return c.json({ job: started.job }, 202);
  });

  app.get('/api/app-runs/:id', (c) => {
    const job = runner.job(c.req.param('id'));
    return job === null ? apiError(c, 404, `No run ${c.req.param('id')} here.`) : c.json({ job });
  });

  app.delete('/api/app-runs/:id', (c) => {
    const refused = crossSiteRequest(c);
    if (refused !== null) return refused;
    const cancelled = runner.cancel(c.req.param('id'));
    return cancelled.success
      ? c.json({ job: cancelled.job })
      : apiError(c, cancelled.status, cancelled.error);
  });
  app.all('/api/*', (c) => apiError(c, 404, `No API route ${c.req.method} ${c.req.path}.`));

  const serveAsset = async (c: Context, relative: string, cache: string) => {
    const type = CONTENT_TYPES[path.extname(relative)];
    if (type === undefined) return c.text('Not found', 404);
    const body = await readFile(path.join(assetsDir, relative)).catch(() => null);
    if (body === null) return c.text('Not found', 404);
    return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': cache });
  };

  app.on('GET', ['/', '/index.html'], (c) => serveAsset(c, 'index.html', 'no-cache'));
  app.get('/assets/:file', (c) => {
    const file = c.req.param('file');
    if (!ASSET_NAME.test(file)) return c.text('Not found', 404);
    // Vite puts a content hash in every asset name, so a cached copy never goes stale.
    return serveAsset(c, path.join('assets', file), 'public, max-age=31536000, immutable');
  });
  app.all('*', (c) => c.text('Not found', 404));

  return app;
}
