import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES, writeViewerFixtures } from '../../test-support/viewer/viewer-fixtures.js';
import { NaoError } from '../errors/index.js';
import { startViewerServer, type ViewerServer } from './viewer-server.js';

let root: string;
let outputsDir: string;
let assetsDir: string;
let server: ViewerServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nao-viewer-server-'));
  outputsDir = path.join(root, 'tests', 'outputs');
  await writeViewerFixtures(outputsDir);
  assetsDir = path.join(root, 'assets');
  await mkdir(assetsDir, { recursive: true });
  await writeFile(path.join(assetsDir, 'index.html'), '<!doctype html><title>viewer</title>');
  server = await startViewerServer({ outputsDir, port: 0, assetsDir });
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

/** A request sent as written: unlike fetch, node:http does not resolve `..` in the path. */
function rawGet(options: { path: string; host?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: server.port,
        path: options.path,
        headers: options.host ? { host: options.host } : {},
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
  });
}

async function startError(options: Parameters<typeof startViewerServer>[0]): Promise<NaoError> {
  try {
    const started = await startViewerServer(options);
    await started.close();
  } catch (error) {
    if (error instanceof NaoError) return error;
    throw error;
  }
  throw new Error('expected startViewerServer to fail');
}

describe('startViewerServer', () => {
  it('listens on 127.0.0.1 and serves the API and the page', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>viewer</title>');
    const list = (await (await fetch(`${server.url}api/files`)).json()) as { files: { name: string }[] };
    expect(list.files[0]?.name).toBe(FILES.repeat);
  });

  it.each([
    '/api/files/../results_secret.json',
    '/api/files/../../tests/results_secret.json',
    '/api/files/%2e%2e/results_secret.json',
    '/api/files/%2e%2e',
    '/api/../api/files/results_20250102_100000.json',
    '/assets/../../tests/results_secret.json',
  ])('answers 400 to the unnormalised path %s', async (rawPath) => {
    const response = await rawGet({ path: rawPath });
    expect(response.status).toBe(400);
    expect(response.body).not.toContain('"secret"');
  });

  it('refuses requests naming another host (DNS rebinding)', async () => {
    expect((await rawGet({ path: '/api/files', host: 'attacker.example' })).status).toBe(403);
    expect((await rawGet({ path: '/api/files', host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('says which port is busy and how to pick another', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const error = await startError({ outputsDir, port, assetsDir });
      expect(error.code).toBe('VIEWER_PORT_IN_USE');
      expect(error.message).toContain(`Port ${port} is already in use`);
      expect(error.message).toContain('--port');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it.each([
    [{ port: 70000 }, 'VIEWER_INVALID_PORT', /Invalid port 70000/],
    [{ port: 1.5 }, 'VIEWER_INVALID_PORT', /whole number/],
    [{ port: 0, host: '203.0.113.7' }, 'VIEWER_HOST_UNAVAILABLE', /203\.0\.113\.7/],
  ])('refuses %j', async (options, code, message) => {
    const error = await startError({ outputsDir, assetsDir, ...options });
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('says how to build the web UI when it is missing', async () => {
    const error = await startError({ outputsDir, port: 0, assetsDir: path.join(root, 'not-built') });
    expect(error.code).toBe('VIEWER_ASSETS_MISSING');
    expect(error.message).toContain(path.join(root, 'not-built', 'index.html'));
    expect(error.message).toContain('npm run build');
  });

  it('closes promptly even with a browser connection kept alive', async () => {
    const other = await startViewerServer({ outputsDir, port: 0, assetsDir });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: other.port, path: '/api/files', agent }, (response) => {
          response.resume();
          response.on('end', resolve);
        })
        .on('error', reject);
    });
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(fetch(other.url)).rejects.toThrow();
    agent.destroy();
  });
});
