/**
 * Loaded into a nao child process (`node --import`): SIGKILLs it at the one moment a kill
 * can do the most harm to a file whose base name matches NAO_KILL_AT_FILE (a regular
 * expression) — right after the name exists but before any content is in it (an open or
 * writeFile that creates it), or right before a rename or link gives a complete file the
 * name. A writer that is atomic leaves no file of that name; one that is not leaves it empty.
 * Deterministic: no timing, the kill happens at that call.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const pattern = new RegExp(process.env.NAO_KILL_AT_FILE ?? '(?!)');
const matches = (file) => typeof file === 'string' && pattern.test(path.basename(file));
const creates = (flags) => typeof flags === 'string' && /[wax]/.test(flags);

async function die() {
  process.kill(process.pid, 'SIGKILL');
  await new Promise(() => {});
}

const original = { ...fs.promises };
fs.promises.open = async (file, flags, mode) => {
  if (matches(file) && creates(flags)) {
    await (await original.open(file, flags, mode)).close();
    await die();
  }
  return original.open(file, flags, mode);
};
fs.promises.writeFile = async (file, data, options) => {
  if (matches(file)) {
    const flag = (typeof options === 'object' && options?.flag) || 'w';
    await (await original.open(file, flag)).close();
    await die();
  }
  return original.writeFile(file, data, options);
};
fs.promises.rename = async (from, to) => {
  if (matches(to)) await die();
  return original.rename(from, to);
};
fs.promises.link = async (from, to) => {
  if (matches(to)) await die();
  return original.link(from, to);
};
syncBuiltinESMExports();
