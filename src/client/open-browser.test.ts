import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemBrowserOpener } from './open-browser.js';

let dir: string;
let recorder: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-browser-'));
  recorder = path.join(dir, 'record-url.sh');
  await writeFile(recorder, '#!/bin/sh\nprintf "%s" "$1" > "$(dirname "$0")/opened.txt"\n');
  await chmod(recorder, 0o755);
  await writeFile(path.join(dir, 'fail.sh'), '#!/bin/sh\nexit 3\n');
  await chmod(path.join(dir, 'fail.sh'), 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL = 'http://localhost:5005/cli/authorize?state=a&redirect_uri=b';

describe('systemBrowserOpener', () => {
  it('runs $BROWSER with the URL', async () => {
    const open = systemBrowserOpener({ env: { BROWSER: recorder }, platform: 'linux' });
    expect(await open(URL)).toBe(true);
    expect(await readFile(path.join(dir, 'opened.txt'), 'utf8')).toBe(URL);
  });

  it('puts the URL where $BROWSER says %s', async () => {
    const open = systemBrowserOpener({ env: { BROWSER: `${recorder} %s` }, platform: 'linux' });
    expect(await open(`${URL}&x=2`)).toBe(true);
    expect(await readFile(path.join(dir, 'opened.txt'), 'utf8')).toBe(`${URL}&x=2`);
  });

  it.each([
    ['BROWSER=none', () => ({ BROWSER: 'none' })],
    ['a launcher that fails', () => ({ BROWSER: path.join(dir, 'fail.sh') })],
    ['a launcher that does not exist', () => ({ BROWSER: '/nonexistent/browser' })],
    ['Linux without a display', () => ({ DISPLAY: '', WAYLAND_DISPLAY: '' })],
  ])('reports no browser for %s', async (_label, env) => {
    const open = systemBrowserOpener({ env: env(), platform: 'linux' });
    expect(await open(URL)).toBe(false);
  });
});
