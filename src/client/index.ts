export {
  type BackendCallOptions,
  type BackendReply,
  BackendUnreachableError,
  callBackend,
  checkBackend,
  exchangeCliCode,
  type LoginResult,
  loginWithPassword,
  revokeSession,
} from './backend-api.js';
export { type BackendTestRunClient, createBackendClient, UNAUTHORIZED_MESSAGE } from './backend-client.js';
export { type BackendSession, createBackendSession } from './backend-session.js';
export { normalizeBackendUrl } from './backend-url.js';
export { type BrowserLoginOptions, browserLogin, LOGIN_TIMEOUT_MS } from './browser-login.js';
export {
  type CredentialStore,
  createCredentialStore,
  naoHome,
  type StoredLogin,
} from './credential-store.js';
export { type OpenBrowser, systemBrowserOpener } from './open-browser.js';
export { type PromptStreams, promptCredentials } from './prompt-credentials.js';
export { parseTestRunResponse } from './test-run-response.js';
