/** Where `nao test server` listens unless told otherwise: this machine only. */
export const DEFAULT_VIEWER_PORT = 8765;
export const DEFAULT_VIEWER_HOST = '127.0.0.1';
