import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, Readable, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * A `fetch` for provider calls built on node:http / node:https: about half the main-thread CPU of
 * the built-in fetch (undici + WHATWG streams) per call, which adds up over a big `nao test` run.
 * It covers what the AI SDK providers send (string or byte bodies) and hands anything else to the
 * built-in fetch.
 */

type FetchFunction = typeof globalThis.fetch;

/**
 * Captured at load so that installing `httpFetch` as `globalThis.fetch` cannot make the
 * delegation below call itself.
 */
const nativeFetch: FetchFunction = globalThis.fetch;

/*
 * Node's agent unrefs a socket when it goes back to the pool, so idle keep-alive connections never
 * hold the process open. LIFO reuses the warmest socket and lets the others expire; the idle limit
 * stays under the 5 s keep-alive of common servers, so a socket is not reused just as the server
 * closes it (the agent also honours a shorter `Keep-Alive: timeout=` hint).
 */
const AGENT_OPTIONS = { keepAlive: true, scheduling: 'lifo', timeout: 4_000 } as const;
const httpAgent = new http.Agent(AGENT_OPTIONS);
const httpsAgent = new https.Agent(AGENT_OPTIONS);

const buffered = new WeakSet<Response>();

/**
 * True when `httpFetch` read the whole body before resolving, so re-reading it to guard
 * against a stalled body (as retry-fetch does for plain fetch) is wasted work.
 */
export function isBufferedResponse(response: Response): boolean {
  return buffered.has(response);
}

/** Statuses whose responses have no body: the Response constructor refuses one, even empty. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** Fetch upper-cases only these methods; any other name goes out as written. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** Describe a body that a redirect to GET drops. */
const REQUEST_BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];
/** Credentials that must not follow a redirect to another origin (as undici does). */
const CROSS_ORIGIN_DROPPED_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];

type Coding = 'gzip' | 'deflate' | 'br';
const CODINGS: Record<string, Coding> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate', br: 'br' };

/*
 * Like fetch, a body cut short after valid compressed data is accepted rather than failed:
 * browsers do the same, and some servers end compressed streams without a final block.
 */
const ZLIB_OPTIONS: zlib.ZlibOptions = {
  flush: zlib.constants.Z_SYNC_FLUSH,
  finishFlush: zlib.constants.Z_SYNC_FLUSH,
};
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};
const gunzip = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.gunzip);
const inflate = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflate);
const inflateRaw = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflateRaw);
const brotliDecompress = promisify<zlib.InputType, zlib.BrotliOptions, Buffer>(zlib.brotliDecompress);

interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | null;
  redirect: NonNullable<RequestInit['redirect']>;
  signal: AbortSignal | undefined;
}

/** How undici reports a failed connection: callers read `error.cause.code` (ECONNREFUSED, ECONNRESET…). */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/**
 * `fetch` on node:http / node:https with keep-alive, transparent gzip / deflate / br decoding and
 * redirects. A response is read whole before the promise resolves (see `isBufferedResponse`),
 * except `text/event-stream`, which streams.
 */
export const httpFetch: FetchFunction = async (input, init) => {
  const outgoing = await describeRequest(input, init);
  if (outgoing === undefined) return nativeFetch(input, init);
  const { signal } = outgoing;
  if (signal?.aborted) throw signal.reason;

  for (let redirects = 0; ; redirects++) {
    const res = await roundTrip(outgoing);
    const status = res.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status) && outgoing.redirect !== 'manual') {
      if (outgoing.redirect === 'error') {
        drain(res);
        throw fetchFailed(new Error('unexpected redirect'));
      }
      const location = res.headers.location;
      if (location !== undefined) {
        drain(res);
        if (redirects === MAX_REDIRECTS) throw fetchFailed(new Error('redirect count exceeded'));
        followRedirect({ outgoing, status, location });
        continue;
      }
    }
    return toResponse({ res, outgoing, redirected: redirects > 0 });
  }
};

async function describeRequest(
  input: Parameters<FetchFunction>[0],
  init: RequestInit | undefined,
): Promise<Outgoing | undefined> {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request?.url ?? String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`httpFetch supports only http: and https: URLs, not the "${url.protocol}" scheme.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('Request cannot be constructed from a URL that includes credentials');
  }
  const headers = new Headers(init?.headers ?? request?.headers);
  const method = normalizeMethod(init?.method ?? request?.method ?? 'GET');

  let body: Buffer | null;
  if (init?.body !== undefined) {
    const encoded = encodeBody(init.body, headers);
    // Streams, Blobs and FormData need async reading or multipart encoding; the SDK providers
    // only send them for file uploads, off the hot path, where the built-in fetch does it right.
    if (encoded === 'unsupported') return undefined;
    body = encoded;
  } else {
    body = request?.body ? Buffer.from(await request.arrayBuffer()) : null;
  }
  if (body !== null && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  if (body !== null) headers.set('content-length', String(body.byteLength));
  if (!headers.has('accept')) headers.set('accept', '*/*');
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
  if (!headers.has('user-agent')) headers.set('user-agent', 'node');

  return {
    url,
    method,
    headers,
    body,
    redirect: init?.redirect ?? request?.redirect ?? 'follow',
    // An explicit `signal: null` in init drops the Request's signal, as in `new Request(input, init)`.
    signal: (init?.signal !== undefined ? init.signal : request?.signal) ?? undefined,
  };
}

function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return NORMALIZED_METHODS.has(upper) ? upper : method;
}

/** The bytes to send, setting the content-type fetch would; 'unsupported' for kinds left to fetch. */
function encodeBody(
  body: NonNullable<RequestInit['body']> | null,
  headers: Headers,
): Buffer | null | 'unsupported' {
  if (body === null) return null;
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return Buffer.from(body, 'utf8');
  }
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) {
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    }
    return Buffer.from(body.toString(), 'utf8');
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return 'unsupported';
}

/** Sends the request; resolves once the response headers are in. */
function roundTrip(outgoing: Outgoing): Promise<IncomingMessage> {
  const { url, signal } = outgoing;
  return new Promise((resolve, reject) => {
    // An abort between redirect hops fired before this listener existed.
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      reject(signal?.reason);
      req.destroy();
    };
    const req: ClientRequest = (url.protocol === 'https:' ? https : http).request(url, {
      method: outgoing.method,
      headers: Object.fromEntries(outgoing.headers),
      agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
    });
    // Kept for the life of the request: the socket can still fail after the response arrived,
    // and an 'error' with no listener would crash the process.
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(fetchFailed(error));
    });
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      if (settled) {
        res.destroy();
        return;
      }
      settled = true;
      resolve(res);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(outgoing.body ?? undefined);
  });
}

/** Rewrites `outgoing` in place for the next hop, as the fetch standard's HTTP-redirect fetch does. */
function followRedirect(options: { outgoing: Outgoing; status: number; location: string }): void {
  const { outgoing, status } = options;
  let next: URL;
  try {
    next = new URL(options.location, outgoing.url);
  } catch (error) {
    throw fetchFailed(error);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new TypeError(`httpFetch cannot follow a redirect to the "${next.protocol}" scheme.`);
  }
  if (
    ((status === 301 || status === 302) && outgoing.method === 'POST') ||
    (status === 303 && outgoing.method !== 'GET' && outgoing.method !== 'HEAD')
  ) {
    outgoing.method = 'GET';
    outgoing.body = null;
    for (const name of REQUEST_BODY_HEADERS) outgoing.headers.delete(name);
  }
  if (next.origin !== outgoing.url.origin) {
    for (const name of CROSS_ORIGIN_DROPPED_HEADERS) outgoing.headers.delete(name);
  }
  outgoing.url = next;
}

async function toResponse(options: {
  res: IncomingMessage;
  outgoing: Outgoing;
  redirected: boolean;
}): Promise<Response> {
  const { res, outgoing } = options;
  const { signal } = outgoing;
  if (signal?.aborted) {
    res.destroy();
    throw signal.reason;
  }
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res.rawHeaders) };
  const finish = (response: Response, isBuffered: boolean) => {
    if (isBuffered) buffered.add(response);
    // The constructor leaves these empty; callers of fetch expect the final address.
    Object.defineProperties(response, {
      url: { value: outgoing.url.href.replace(/#.*$/, '') },
      redirected: { value: options.redirected },
    });
    return response;
  };

  if (NULL_BODY_STATUSES.has(status) || outgoing.method === 'HEAD') {
    drain(res);
    return finish(new Response(null, init), true);
  }

  const codings = contentCodings(res.headers['content-encoding']);
  if (codings.length > 0) {
    // The body handed over is decoded, so these no longer describe it.
    init.headers.delete('content-encoding');
    init.headers.delete('content-length');
  }

  if ((res.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')) {
    return finish(new Response(streamBody({ res, codings, signal }), init), false);
  }

  const raw = await readAll({ res, signal });
  let body: Buffer;
  try {
    body = await decodeAll(raw, codings);
  } catch (error) {
    throw fetchFailed(error);
  }
  if (signal?.aborted) throw signal.reason;
  // A view, not a copy. Node's buffers sit on plain ArrayBuffers, never shared ones, which is
  // what lib.dom's BodyInit insists on.
  const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return finish(new Response(bytes, init), true);
}

/** Discards a body nobody reads, so the connection goes back to the pool instead of being closed. */
function drain(res: IncomingMessage): void {
  // A connection cut while draining concerns nobody, but an 'error' without a listener would crash.
  res.on('error', () => {});
  res.resume();
}

/** Multi-valued headers joined with ', ' by `Headers.append`, which keeps each set-cookie apart. */
function responseHeaders(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return headers;
}

/** The codings applied, in order; none when any is unknown, so the body is passed through as fetch does. */
function contentCodings(header: string | undefined): Coding[] {
  if (header === undefined) return [];
  const codings: Coding[] = [];
  for (const token of header.split(',')) {
    const name = token.trim().toLowerCase();
    if (name === '' || name === 'identity') continue;
    const coding = CODINGS[name];
    if (coding === undefined) return [];
    codings.push(coding);
  }
  return codings;
}

function streamBody(options: {
  res: IncomingMessage;
  codings: Coding[];
  signal: AbortSignal | undefined;
}): ReadableStream<Uint8Array> {
  const { res, signal } = options;
  let source: Readable = res;
  for (let i = options.codings.length - 1; i >= 0; i--) {
    // Errors reach the consumer through the web stream; pipeline only insists on a callback.
    source = pipeline(source, streamDecoder(options.codings[i]!), () => {});
  }
  if (signal !== undefined) {
    const onAbort = () => {
      // The consumer sees exactly the abort reason, as with fetch; destroying res frees the socket.
      source.destroy(signal.reason);
      res.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    source.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  return Readable.toWeb(source) as ReadableStream<Uint8Array>;
}

function streamDecoder(coding: Coding): Transform {
  if (coding === 'br') return zlib.createBrotliDecompress(BROTLI_OPTIONS);
  if (coding === 'gzip') return zlib.createGunzip(ZLIB_OPTIONS);
  // Event streams are rarely deflated; unlike the buffered path this assumes the zlib wrapper.
  return zlib.createInflate(ZLIB_OPTIONS);
}

function readAll(options: { res: IncomingMessage; signal: AbortSignal | undefined }): Promise<Buffer> {
  const { res, signal } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = () => {
      settled = true;
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      settle();
      reject(signal?.reason);
      res.destroy();
    };
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => {
      if (settled) return;
      settle();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    res.once('error', (error) => {
      if (settled) return;
      settle();
      reject(fetchFailed(error));
    });
    // Node reports a cut connection as an 'error' first; this covers a close that reports nothing.
    res.once('close', () => {
      if (settled) return;
      settle();
      const error = Object.assign(new Error('the connection closed before the response ended'), {
        code: 'ECONNRESET',
      });
      reject(fetchFailed(error));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Undoes the codings last-applied first, on the zlib thread pool rather than the main thread. */
async function decodeAll(body: Buffer, codings: Coding[]): Promise<Buffer> {
  let decoded = body;
  for (let i = codings.length - 1; i >= 0; i--) {
    if (decoded.byteLength === 0) return decoded;
    const coding = codings[i];
    if (coding === 'br') decoded = await brotliDecompress(decoded, BROTLI_OPTIONS);
    else if (coding === 'gzip') decoded = await gunzip(decoded, ZLIB_OPTIONS);
    // 'deflate' should carry the zlib wrapper, but some servers send raw deflate data.
    else decoded = await (hasZlibHeader(decoded) ? inflate : inflateRaw)(decoded, ZLIB_OPTIONS);
  }
  return decoded;
}

function hasZlibHeader(bytes: Buffer): boolean {
  const first = bytes[0];
  const second = bytes[1];
  if (first === undefined || second === undefined) return false;
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}
