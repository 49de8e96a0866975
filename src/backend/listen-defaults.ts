/** Where `nao chat` listens unless told otherwise: this machine only. */
export const DEFAULT_PORT = 5005;
export const DEFAULT_HOST = '127.0.0.1';

/** Where the CLI looks for a backend when neither --backend nor BACKEND_URL says: a local `nao chat`. */
export const DEFAULT_BACKEND_URL = `http://localhost:${DEFAULT_PORT}`;
