import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { NaoError } from '../errors/index.js';
import { writeFileAtomic } from '../files/index.js';

export const AUTH_SECRET_FILE = path.join('.nao', 'auth-secret');
const MIN_LENGTH = 32;

/**
 * The key that signs session cookies: `NAO_AUTH_SECRET` when set, else a random one created
 * once in the project's `.nao/auth-secret` (mode 0600), so sessions survive a restart.
 */
export async function loadAuthSecret(options: {
  projectDir: string;
  env: Record<string, string | undefined>;
}): Promise<string> {
  const fromEnv = options.env.NAO_AUTH_SECRET?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < MIN_LENGTH) {
      throw new NaoError({
        code: 'AUTH_SECRET_TOO_SHORT',
        message: `NAO_AUTH_SECRET has ${fromEnv.length} characters; use at least ${MIN_LENGTH} random ones (e.g. \`openssl rand -base64 32\`), or unset it to let nao keep one in ${AUTH_SECRET_FILE}.`,
      });
    }
    return fromEnv;
  }
  const file = path.join(options.projectDir, AUTH_SECRET_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= MIN_LENGTH) return stored;
    throw new NaoError({
      code: 'AUTH_SECRET_TOO_SHORT',
      message: `${file} holds a secret shorter than ${MIN_LENGTH} characters. Delete the file (every session is then signed out) and start \`nao chat\` again.`,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  // Never replacing: a second server starting at the same moment either creates the file or
  // reads the whole secret of the first, never a half-written file.
  try {
    await writeFileAtomic({ path: file, data: `${secret}\n`, mode: 0o600, ifExists: 'fail' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadAuthSecret(options);
    throw error;
  }
  return secret;
}
