import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { NaoError } from '../errors/index.js';
import { writeFileAtomic } from '../files/index.js';
import { normalizeBackendUrl } from './backend-url.js';

/** A session token for one backend, as `nao login` stored it (never the password). */
export interface StoredLogin {
  token: string;
  email: string;
  /** ISO time of the log-in. */
  savedAt: string;
  /** The session cookie the log-in set (`name=value`), for backends that know sessions by cookie only. */
  cookie?: string;
}

const storedLoginSchema = z.object({
  token: z.string().min(1),
  email: z.string(),
  savedAt: z.string(),
  cookie: z.string().optional(),
});
const fileSchema = z.object({ backends: z.record(z.string(), storedLoginSchema) });
type CredentialsFile = z.infer<typeof fileSchema>;

/** `$NAO_HOME` (tests point it at a temporary folder), else `~/.nao`. */
export function naoHome(env: Record<string, string | undefined>): string {
  const override = env.NAO_HOME?.trim();
  if (override !== undefined && override !== '') return path.resolve(override);
  return path.join(env.HOME?.trim() || homedir(), '.nao');
}

export interface CredentialStore {
  /** The file, for messages: `~/.nao/auth.json`. */
  readonly file: string;
  get(backendUrl: string): Promise<StoredLogin | null>;
  save(backendUrl: string, login: StoredLogin): Promise<void>;
  /** Removes the backend's entry; false when there was none. */
  remove(backendUrl: string): Promise<boolean>;
}

/**
 * Session tokens keyed by backend URL in `auth.json` under `naoHome` (folder 0700, file
 * 0600). Writes replace the file atomically, so a crash never leaves half a file.
 */
export function createCredentialStore(options: { env: Record<string, string | undefined> }): CredentialStore {
  const dir = naoHome(options.env);
  const file = path.join(dir, 'auth.json');
  // Writes of one process happen one after the other (concurrent runs may all log in).
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<CredentialsFile> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { backends: {} };
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw corrupt(file, 'it is not valid JSON');
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success)
      throw corrupt(file, 'it does not have the expected {"backends": {url: {token, email, savedAt}}} shape');
    return parsed.data;
  }

  async function write(content: CredentialsFile): Promise<void> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic({ path: file, data: `${JSON.stringify(content, null, 2)}\n`, mode: 0o600 });
  }

  function update<T>(change: (content: CredentialsFile) => T): Promise<T> {
    const next = queue.then(async () => {
      const content = await read();
      const result = change(content);
      await write(content);
      return result;
    });
    queue = next.catch(() => {});
    return next;
  }

  async function get(backendUrl: string): Promise<StoredLogin | null> {
    await queue;
    return (await read()).backends[normalizeBackendUrl(backendUrl)] ?? null;
  }

  return {
    file,
    get,
    save(backendUrl, login) {
      return update((content) => {
        content.backends[normalizeBackendUrl(backendUrl)] = login;
      });
    },
    async remove(backendUrl) {
      const key = normalizeBackendUrl(backendUrl);
      if ((await get(backendUrl)) === null) return false;
      return update((content) => {
        const had = key in content.backends;
        delete content.backends[key];
        return had;
      });
    },
  };
}

function corrupt(file: string, why: string): NaoError {
  return new NaoError({
    code: 'CREDENTIALS_FILE_INVALID',
    message: `Cannot read the stored log-ins in ${file}: ${why}. Delete the file and run \`nao login\` again.`,
  });
}
