import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childReady } from './child-module.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-child-ready-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A child process running `source`, with an IPC channel. */
async function child(name: string, source: string) {
  const file = path.join(dir, `${name}.mjs`);
  await writeFile(file, source);
  return fork(file, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
}

const options = { ended: () => new Error('ended before it was ready') };

describe('childReady', () => {
  it('resolves on ready, past messages it does not know', async () => {
    const ready = await child(
      'ready',
      `process.send({ kind: 'note' }); process.send({ kind: 'ready' }); process.disconnect();`,
    );
    await expect(childReady(ready, options)).resolves.toBeUndefined();
  });

  it('rejects with `ended` when the process exits before it is ready', async () => {
    const crashing = await child('crashing', `process.exit(3);`);
    await expect(childReady(crashing, options)).rejects.toThrow('ended before it was ready');
  });
});
