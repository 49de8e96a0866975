import { UsageError } from '../errors/index.js';

export interface Credentials {
  username: string;
  password: string;
}

/** `-u/--username` and `--password`, else NAO_USERNAME and NAO_PASSWORD: both or neither (null). */
export function credentialsFrom(options: {
  flags: { username?: string; password?: string };
  env: Record<string, string | undefined>;
}): Credentials | null {
  const username = options.flags.username ?? options.env.NAO_USERNAME;
  const password = options.flags.password ?? options.env.NAO_PASSWORD;
  if (username === undefined && password === undefined) return null;
  if (username === undefined) {
    throw new UsageError({
      code: 'INCOMPLETE_CREDENTIALS',
      message: 'A password was given without a username: pass -u/--username or set NAO_USERNAME.',
    });
  }
  if (password === undefined) {
    throw new UsageError({
      code: 'INCOMPLETE_CREDENTIALS',
      message: 'A username was given without a password: pass --password or set NAO_PASSWORD.',
    });
  }
  return { username, password };
}
