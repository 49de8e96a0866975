export {
  BackendUnreachableError,
  callBackend,
  checkBackend,
  loginWithPassword,
  revokeSession,
} from './backend-api.js';
export { createBackendClient } from './backend-client.js';
export { type BackendSession, createBackendSession } from './backend-session.js';
export { normalizeBackendUrl } from './backend-url.js';
export { browserLogin } from './browser-login.js';
export { createCredentialStore, type StoredLogin } from './credential-store.js';
export { systemBrowserOpener } from './open-browser.js';
export { promptCredentials } from './prompt-credentials.js';
