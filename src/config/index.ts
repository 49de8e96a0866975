export { ConfigInvalidError, ConfigNotFoundError, loadConfig, parseConfig } from './load-config.js';
export { configuredDatabaseNames, type NaoConfig, type UnavailableDatabase } from './nao-config.js';
export { type ComparisonOptions, type DatabaseConfig, modelStringSchema } from './schema.js';
