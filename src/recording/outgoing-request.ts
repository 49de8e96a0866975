/** The parts of a provider request that record/replay needs, read without consuming it. */
export interface OutgoingRequest {
  /** URL path without host or query string (the host is the base_url, the query may hold a key). */
  path: string;
  body: string;
  /** Credentials the request carries (API keys, bearer tokens), to keep out of recordings. */
  secrets: string[];
  /** What to hand to the real fetch: the original arguments, or a copy whose body is still readable. */
  forward: Parameters<typeof globalThis.fetch>;
}

const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key'];
const SECRET_QUERY_PARAMETERS = ['key', 'api_key', 'api-key', 'apikey', 'access_token', 'token'];

function urlOf(input: Parameters<typeof globalThis.fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

export async function readOutgoingRequest(
  input: Parameters<typeof globalThis.fetch>[0],
  init: RequestInit | undefined,
): Promise<OutgoingRequest> {
  const url = urlOf(input);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const secrets: string[] = [];
  for (const name of SECRET_HEADERS) {
    const value = headers.get(name)?.trim();
    if (value === undefined || value === '') continue;
    secrets.push(value);
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential !== undefined) secrets.push(credential);
  }
  for (const name of SECRET_QUERY_PARAMETERS) {
    const value = parsed?.searchParams.get(name);
    if (value) secrets.push(value);
  }

  let body: string;
  let forward: Parameters<typeof globalThis.fetch> = [input, init];
  const raw = init?.body;
  if (typeof raw === 'string') body = raw;
  else if (raw === undefined || raw === null)
    body = input instanceof Request ? await input.clone().text() : '';
  else if (raw instanceof URLSearchParams) body = raw.toString();
  else if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) body = new TextDecoder().decode(raw);
  else {
    // A stream can be read once: read it here and forward the text instead.
    body = await new Request(url, { ...init, duplex: 'half' } as RequestInit).text();
    forward = [input, { ...init, body }];
  }
  return { path: parsed?.pathname ?? url.split('?')[0] ?? '', body, secrets, forward };
}
