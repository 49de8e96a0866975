export {
  CONFIG_FILE,
  ConfigInvalidError,
  ConfigNotFoundError,
  loadConfig,
  parseConfig,
} from './load-config.js';
export { configuredDatabaseNames, type NaoConfig, type UnavailableDatabase } from './nao-config.js';
export {
  type ComparisonOptions,
  type Costs,
  DATABASE_TYPES,
  type DatabaseConfig,
  type DatabaseType,
  DEFAULT_COMPARISON,
  DEFAULT_MODELS,
  modelStringSchema,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
} from './schema.js';
export type { SecretRef, UnresolvedValue } from './secret-refs.js';
export { formatYamlPath, parseYamlSource, type YamlPath, type YamlSource } from './yaml-source.js';
