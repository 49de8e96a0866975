import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTempFileName, removeStaleTempFiles, writeFileAtomic, writeNewFileAtomic } from './atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an existing one, leaving no temporary file', async () => {
    const target = path.join(dir, 'sub', 'out.json');
    await writeFileAtomic({ path: target, data: 'one' });
    await writeFileAtomic({ path: target, data: 'two' });
    expect(await readFile(target, 'utf8')).toBe('two');
    expect(await readdir(path.dirname(target))).toEqual(['out.json']);
  });

  it("with ifExists: 'fail' leaves an existing file as it was and throws EEXIST", async () => {
    const target = path.join(dir, 'test.yml');
    await writeFile(target, 'mine');
    await expect(writeFileAtomic({ path: target, data: 'theirs', ifExists: 'fail' })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await readFile(target, 'utf8')).toBe('mine');
    expect(await readdir(dir)).toEqual(['test.yml']);
  });

  it('gives the file exactly the mode asked for, whatever the umask', async () => {
    const previous = process.umask(0);
    try {
      const target = path.join(dir, 'secret');
      await writeFileAtomic({ path: target, data: 's3cret', mode: 0o600 });
      expect((await stat(target)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });
});

describe('writeNewFileAtomic', () => {
  it('takes the first free name and never replaces a file', async () => {
    await writeFile(path.join(dir, 'r_1.json'), 'first');
    const nameOf = (sequence: number) => `r_${sequence}.json`;
    const written = await writeNewFileAtomic({
      folder: dir,
      nameOf,
      maxNames: 5,
      data: 'second',
      tempStem: 'r',
    });
    expect(written).toBe(path.join(dir, 'r_2.json'));
    expect(await readFile(path.join(dir, 'r_1.json'), 'utf8')).toBe('first');
    expect(await readFile(written, 'utf8')).toBe('second');
    expect((await readdir(dir)).sort()).toEqual(['r_1.json', 'r_2.json']);
  });

  it('fails once every name is taken, leaving no temporary file', async () => {
    await writeFile(path.join(dir, 'r.json'), 'x');
    await expect(
      writeNewFileAtomic({ folder: dir, nameOf: () => 'r.json', maxNames: 3, data: 'y', tempStem: 'r' }),
    ).rejects.toThrow('3 files named like r.json already exist');
    expect(await readdir(dir)).toEqual(['r.json']);
  });
});

describe('removeStaleTempFiles', () => {
  it('removes the temporary files older than a day, and nothing else', async () => {
    const old = '.results-123-0b0c6b1e-4a1b-4c1d-9e1f-1234567890ab.tmp';
    const young = '.test.yml-77-0b0c6b1e-4a1b-4c1d-9e1f-1234567890ac.tmp';
    const userFiles = ['results_20250101_000000.json', '.hidden.tmp', 'notes-1-x.tmp'];
    for (const name of [old, young, ...userFiles]) await writeFile(path.join(dir, name), '');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const name of [old, ...userFiles]) await utimes(path.join(dir, name), twoDaysAgo, twoDaysAgo);
    expect(isTempFileName(old) && isTempFileName(young)).toBe(true);
    expect(await removeStaleTempFiles({ folder: dir })).toEqual([path.join(dir, old)]);
    expect((await readdir(dir)).sort()).toEqual([young, ...userFiles].sort());
    expect(await removeStaleTempFiles({ folder: path.join(dir, 'absent') })).toEqual([]);
  });
});
