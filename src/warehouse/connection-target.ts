/** How a server database is described in messages, and how its secrets are kept out of them. */

export interface ServerConnectionFields {
  url?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  user?: string | undefined;
  password?: string | undefined;
  database?: string | undefined;
}

/**
 * 'host:port/database as user' for error messages, never the password. Like the drivers
 * (pg, mysql2), the parts of `url` win over the separate fields.
 */
export function describeServerTarget(fields: ServerConnectionFields, defaultPort: number): string {
  let host = fields.host;
  let port = fields.port === undefined ? undefined : String(fields.port);
  let database = fields.database;
  let user = fields.user;
  if (fields.url !== undefined) {
    const url = parseUrl(fields.url);
    if (url === undefined) return `${redactSecrets(fields.url, secretsOf(fields))} (unparsable url)`;
    const socketHost = url.searchParams.get('host') ?? url.searchParams.get('socketPath');
    host = decode(url.hostname) || socketHost || host;
    port = url.port || port;
    database = decode(url.pathname.replace(/^\//, '')) || database;
    user = decode(url.username) || user;
  }
  const where = `${host || 'localhost'}:${port ?? defaultPort}${database ? `/${database}` : ''}`;
  return user ? `${where} as user ${user}` : where;
}

/** Every spelling of the password a message could carry: as configured, and as written in the url. */
export function secretsOf(fields: ServerConnectionFields): string[] {
  const secrets = new Set<string>();
  if (fields.password) secrets.add(fields.password);
  if (fields.url !== undefined) {
    const url = parseUrl(fields.url);
    if (url?.password) {
      secrets.add(url.password);
      secrets.add(decode(url.password));
    }
  }
  for (const secret of [...secrets]) secrets.add(encodeURIComponent(secret));
  return [...secrets].filter((secret) => secret !== '');
}

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]*):([^\s@/]*)@/gi;

/**
 * Secrets shorter than this are not searched for in messages: a one-letter password would
 * mask letters of host names and words (`acela.pro***y.rlwy.net`). Config values are never
 * printed whatever their length, and url credentials are masked by position.
 */
const MIN_SEARCHED_SECRET_CHARS = 6;

/**
 * `text` with credentials of any `scheme://user:password@` url and every given secret
 * replaced by `***`. Engine messages pass through here before they reach an error.
 * A secret is masked only where it stands whole, not inside a longer run of letters and
 * digits, so the rest of the message stays readable.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text.replace(URL_CREDENTIALS, '$1$2:***@');
  // Longest first, so a secret containing another one is removed whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length < MIN_SEARCHED_SECRET_CHARS) continue;
    redacted = redacted.replace(wholeOccurrences(secret), '***');
  }
  return redacted;
}

function wholeOccurrences(secret: string): RegExp {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'g');
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
