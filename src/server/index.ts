export type { AccountResult, Accounts, PublicUser, RequestOrigin, SessionInfo } from './accounts.js';
export { createAccounts } from './accounts.js';
export { type BackendAppOptions, createBackendApp } from './app.js';
export {
  type AuthAdapter,
  type CreateAuthOptions,
  createAuth,
  migrateAuthStore,
  type NaoAuth,
} from './auth.js';
export { type AuthDatabase, openAuthDatabase, redactUrl, SQLITE_STORE_FILE } from './auth-database.js';
export { AUTH_SECRET_FILE, loadAuthSecret } from './auth-secret.js';
export {
  type RunningBackend,
  type StartBackendOptions,
  startBackend,
} from './backend.js';
export type { ChatEvent, ChatMessage, Conversation } from './chat-api-types.js';
export { chatModels, registerChatApi, registerChatPage } from './chat-routes.js';
export { saveChatTest, TEST_NAME_PATTERN } from './chat-save-test.js';
export { type ChatStore, createChatStore } from './chat-store.js';
export {
  CLI_CODE_TTL_MS,
  type CliLoginCodes,
  codeChallengeOf,
  createCliLoginCodes,
  type RedeemResult,
} from './cli-login-codes.js';
export { DEFAULT_HOST, DEFAULT_PORT } from './listen-defaults.js';
export {
  createLoginLimiter,
  DEFAULT_LOGIN_LIMITS,
  type LoginAllowance,
  type LoginLimiter,
  type LoginLimits,
} from './login-limiter.js';
export { isLoopbackRedirect } from './loopback-redirect.js';
