/** Where `nao chat` listens unless told otherwise: this machine only. */
export const DEFAULT_PORT = 5005;
export const DEFAULT_HOST = '127.0.0.1';
