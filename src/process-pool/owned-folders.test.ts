import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOrphanedFolders } from './owned-folders.js';

let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'nao-owned-folders-'));
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('removeOrphanedFolders', () => {
  it("removes the temporary folders of a nao that is gone (older naos' names too), and only those", async () => {
    // A pid above the kernel's limit runs no process.
    const gone = 4_194_305;
    const names = {
      gone: `nao-temp-${gone}-aB3dE6`,
      goneWorkers: `nao-workers-${gone}-tV5wX7`,
      goneExchange: `nao-exchange-${gone}-fG7hI8`,
      goneOlderName: `nao-sandboxes-${gone}-jK9lM0`,
      live: `nao-temp-${process.pid}-nO1pQ2`,
      unowned: 'nao-workers-rS3tU4',
      unrelated: `nao-workers-notes-${gone}`,
    };
    for (const name of Object.values(names)) await mkdir(path.join(parent, name));
    const removed = removeOrphanedFolders({ parentDir: parent });
    expect(removed.map((folder) => path.basename(folder)).sort()).toEqual(
      [names.gone, names.goneWorkers, names.goneExchange, names.goneOlderName].sort(),
    );
    expect((await readdir(parent)).sort()).toEqual([names.live, names.unowned, names.unrelated].sort());
  });
});
