export { ConfigInvalidError, ConfigNotFoundError, loadConfig, parseConfig } from './load-config.js';
export { configuredDatabaseNames, type NaoConfig, type UnavailableDatabase } from './nao-config.js';
export { type ComparisonOptions, type DatabaseConfig, MAX_TIMEOUT_S, modelStringSchema } from './schema.js';
