export { IN_MEMORY, isOriginalOnlyType } from './databases/index.js';
export {
  canonicalProvider,
  isProviderKind,
  isUnsupportedProviderKind,
} from './llm-providers.js';
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
  ORIGINAL_ONLY_DATABASE_TYPES,
  PROVIDER_ALIASES,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
  UNSUPPORTED_PROVIDER_KINDS,
  type UnsupportedProviderKind,
} from './schema.js';
export {
  describeUnresolved,
  type SecretRef,
  type UnresolvedValue,
  UnresolvedValueError,
} from './secret-refs.js';
export { formatYamlPath, parseYamlSource, type YamlPath, type YamlSource } from './yaml-source.js';
