import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES, writeViewerFixtures } from '../../test-support/viewer/viewer-fixtures.js';
import type { CliDependencies } from './dependencies.js';
import { main } from './main.js';
import { openInBrowser } from './test-server-command.js';

let project: string;
let assetsDir: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'nao-test-server-'));
  await writeFile(path.join(project, 'nao_config.yaml'), 'project_name: viewer-test\n');
  await writeViewerFixtures(path.join(project, 'tests', 'outputs'));
  assetsDir = path.join(project, 'web');
  await mkdir(assetsDir);
  await writeFile(path.join(assetsDir, 'index.html'), '<!doctype html><title>viewer</title>');
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** Runs `nao test server …` until the URL is printed, then hands control to `whileRunning`. */
async function serve(options: {
  args: string[];
  cwd?: string;
  openBrowser?: CliDependencies['openBrowser'];
  whileRunning?: (url: string) => Promise<void>;
}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  const stop = new AbortController();
  const running = main(
    ['node', 'nao', 'test', 'server', ...options.args],
    { stdout, stderr, env: {}, cwd: options.cwd ?? project },
    {
      interrupt: stop.signal,
      viewerAssetsDir: assetsDir,
      openBrowser: options.openBrowser ?? (async () => true),
    },
  );
  const url = await Promise.race([
    running.then(() => null),
    (async () => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const match = /nao test server: (\S+)/.exec(out);
        if (match) return match[1]!;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`the server did not start: ${out}${err}`);
    })(),
  ]);
  if (url !== null) {
    await options.whileRunning?.(url);
    stop.abort();
  }
  const exitCode = await running;
  return { url, stdout: out, stderr: err, exitCode };
}

describe('nao test server', () => {
  it("serves the project's tests/outputs/ until stopped, without a browser when --no-open", async () => {
    const opened: string[] = [];
    let files: string[] = [];
    const result = await serve({
      args: ['--port', '0', '--no-open'],
      openBrowser: async (url) => {
        opened.push(url);
        return true;
      },
      whileRunning: async (url) => {
        const body = (await (await fetch(`${url}api/files`)).json()) as { files: { name: string }[] };
        files = body.files.map((file) => file.name);
      },
    });
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(files[0]).toBe(FILES.repeat);
    expect(opened).toEqual([]);
    expect(result.stdout).toContain(`Serving ${path.join(project, 'tests', 'outputs')}`);
    expect(result.stdout).toContain('Viewer stopped.');
    expect(result.exitCode).toBe(0);
    await expect(fetch(result.url!)).rejects.toThrow();
  });

  it('opens the browser, and only prints the URL when none can be started', async () => {
    const opened: string[] = [];
    const result = await serve({
      args: ['--port', '0'],
      openBrowser: async (url) => {
        opened.push(url);
        return false;
      },
    });
    expect(opened).toEqual([result.url]);
    expect(result.stderr).toContain(`Could not open a browser; open ${result.url} yourself.`);
    expect(result.exitCode).toBe(0);
  });

  it('warns when listening beyond this machine, and turns Run again off there', async () => {
    let status: unknown;
    const result = await serve({
      args: ['--port', '0', '--host', '0.0.0.0', '--no-open'],
      whileRunning: async (url) => {
        status = await (await fetch(`${url}api/app-runs/status`)).json();
      },
    });
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(result.stderr).toContain('Warning: listening on 0.0.0.0');
    expect(status).toMatchObject({
      state: 'unavailable',
      reason: 'disabled',
      message: expect.stringContaining('Run again is off: this viewer listens on 0.0.0.0'),
    });
    expect(result.stdout).not.toContain('Run again (in the page)');
  });

  it('sends Run again to --backend (else BACKEND_URL), and says so', async () => {
    let status: unknown;
    const result = await serve({
      args: ['--port', '0', '--no-open', '--backend', 'http://127.0.0.1:9'],
      whileRunning: async (url) => {
        status = await (await fetch(`${url}api/app-runs/status`)).json();
      },
    });
    expect(result.stdout).toContain(
      'Run again (in the page) goes through the nao backend at http://127.0.0.1:9.',
    );
    expect(status).toMatchObject({
      state: 'unavailable',
      reason: 'no-backend',
      backendUrl: 'http://127.0.0.1:9',
    });
  });

  it('starts on a project without results yet and says how to get some', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'nao-test-server-empty-'));
    try {
      await writeFile(path.join(empty, 'nao_config.yaml'), 'project_name: empty\n');
      const result = await serve({ args: ['--port', '0', '--no-open'], cwd: empty });
      expect(result.stderr).toContain('does not exist yet. Run `nao test`');
      expect(result.exitCode).toBe(0);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it.each(['abc', '-1', '65536', '80.5'])('refuses --port %s as a usage error', async (port) => {
    const result = await serve({ args: ['--port', port, '--no-open'] });
    expect(result.exitCode).toBe(2);
    expect(result.url).toBeNull();
    expect(result.stderr).toContain(
      `--port must be a whole number from 0 (any free port) to 65535, got "${port}"`,
    );
  });

  it('names the busy port and --port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = await serve({ args: ['--port', String(port), '--no-open'] });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`Port ${port} is already in use`);
      expect(result.stderr).toContain('--port');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('openInBrowser', () => {
  async function launcherDir(script: string | null): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'nao-opener-'));
    if (script !== null) await writeFile(path.join(dir, 'xdg-open'), script, { mode: 0o755 });
    return dir;
  }

  it.each([
    ['no launcher on PATH', null, false],
    ['a launcher that fails (no browser)', '#!/bin/sh\nexit 3\n', false],
    ['a launcher that works', '#!/bin/sh\nexit 0\n', true],
  ])('reports %s without throwing', async (_label, script, expected) => {
    const dir = await launcherDir(script);
    try {
      const opened = await openInBrowser('http://127.0.0.1:8765/', { env: { PATH: dir }, platform: 'linux' });
      expect(opened).toBe(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
