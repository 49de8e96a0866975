import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { didYouMean, UsageError } from '../errors/index.js';
import {
  DATABASE_DEFINITIONS,
  DATABASE_TYPES,
  IN_MEMORY,
  isDatabaseType,
  isOriginalOnlyType,
  ORIGINAL_ONLY_DATABASE_TYPES,
} from '../warehouse/database-config.js';
import { isMapping } from '../yaml-fields/mapping.js';
import { templateEnv } from './env-template.js';
import { findUnknownKeys, formatUnknownKey } from './known-keys.js';
import { isUnsupportedProviderKind, providerAddress, providerSchema } from './llm-providers.js';
import type { NaoConfig, UnavailableDatabase } from './nao-config.js';
import {
  configSchema,
  type DatabaseConfig,
  DEFAULT_MODELS,
  DEFAULT_RUN_TIMEOUT_S,
  type ProviderConfig,
  type RawConfig,
} from './schema.js';
import {
  describeUnresolved,
  type UnresolvedValue,
  UnresolvedValueError,
  unresolvedUnder,
} from './secret-refs.js';
import { createSecretResolver, type SecretResolver } from './secret-stores.js';
import { formatYamlPath, parseYamlSource, type YamlPath, type YamlSource } from './yaml-source.js';

export const CONFIG_FILE = 'nao_config.yaml';

export class ConfigNotFoundError extends UsageError {
  constructor(folder: string) {
    super({
      code: 'CONFIG_NOT_FOUND',
      message: `No ${CONFIG_FILE} found in ${folder}. Run nao from your project folder, or create one with \`nao init\`.`,
    });
  }
}

/** Every problem of a broken nao_config.yaml, each with its YAML path and line. */
export class ConfigInvalidError extends UsageError {
  readonly problems: string[];

  constructor(options: { file: string; problems: string[] }) {
    super({
      code: 'CONFIG_INVALID',
      message: `${options.file} is invalid:\n${options.problems.map((problem) => `  - ${problem}`).join('\n')}`,
    });
    this.problems = options.problems;
  }
}

/**
 * Reads, templates and validates `nao_config.yaml` of a project folder. Throws
 * `ConfigNotFoundError` or `ConfigInvalidError`; unknown keys, deprecated blocks and entries
 * nao cannot run come back as `warnings`. Unset variables are not errors here: they are
 * reported by the runs that need their values.
 */
export async function loadConfig(options: {
  projectDir: string;
  env: Record<string, string | undefined>;
  /** Reads `{{ aws(...) }}` / `{{ k8s(...) }}` (default: the `aws` and `kubectl` command lines). */
  resolveSecret?: SecretResolver;
}): Promise<NaoConfig> {
  const projectDir = path.resolve(options.projectDir);
  const configPath = path.join(projectDir, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ConfigNotFoundError(projectDir);
    throw error;
  }
  return parseConfig({
    text,
    projectDir,
    env: options.env,
    resolveSecret: options.resolveSecret ?? createSecretResolver({ env: options.env }),
  });
}

type Mapping = Record<string, unknown>;

/** Validates config text (see `loadConfig`); split out so tests need no files. */
export function parseConfig(options: {
  text: string;
  projectDir: string;
  env: Record<string, string | undefined>;
  /** Without it, secret-store references stay unresolved. */
  resolveSecret?: SecretResolver;
}): NaoConfig {
  const projectDir = path.resolve(options.projectDir);
  const configPath = path.join(projectDir, CONFIG_FILE);
  const templated = templateEnv({
    text: options.text,
    env: options.env,
    ...(options.resolveSecret === undefined ? {} : { resolveSecret: options.resolveSecret }),
  });
  const source = parseYamlSource({
    text: templated.text,
    envValues: templated.values,
    unresolved: templated.unresolved,
  });
  if (source.errors.length > 0) {
    throw new ConfigInvalidError({
      file: CONFIG_FILE,
      problems: source.errors.map((error) =>
        error.position === null ? error.message : `${error.message} (line ${error.position.line})`,
      ),
    });
  }
  const value = source.value ?? {};
  if (!isMapping(value)) {
    throw new ConfigInvalidError({
      file: CONFIG_FILE,
      problems: ['the file must be a mapping of keys (project_name, databases, llm, test)'],
    });
  }

  const warnings: string[] = [];
  const { document, unresolved } = normalizeDocument(value, source, warnings);
  const problems: string[] = [];
  const parsed = configSchema.safeParse(document);
  if (!parsed.success) problems.push(...zodProblems(parsed.error, [], source));
  const databases = readDatabases({ document, source, unresolved, projectDir, problems, warnings });
  const providers = readProviders({ document, source, unresolved, problems, warnings });
  if (problems.length > 0 || !parsed.success) throw new ConfigInvalidError({ file: CONFIG_FILE, problems });
  const raw = parsed.data as RawConfig;

  warnings.unshift(
    ...findUnknownKeys(value).map(
      (unknown) => `${CONFIG_FILE}: ${formatUnknownKey(unknown, source.lineOf(unknown.path))}`,
    ),
  );
  if (raw.llm.meta?.costs !== undefined) {
    warnings.push(
      `${CONFIG_FILE}: \`llm.meta.costs\` is deprecated (line ${source.lineOf(['llm', 'meta', 'costs']) ?? '?'}); ` +
        'it prices every model alike. Move the prices to `costs` under the models they belong to in `llm.providers[].models`.',
    );
  }

  return {
    projectDir,
    configPath,
    projectName: raw.project_name ?? path.basename(projectDir),
    databases: databases.usable,
    unavailableDatabases: databases.unavailable,
    llm: {
      providers,
      ...(raw.llm.meta?.costs === undefined ? {} : { deprecatedCosts: raw.llm.meta.costs }),
    },
    test: {
      models: raw.test.models ?? [...DEFAULT_MODELS],
      threads: raw.test.threads ?? 1,
      failFast: raw.test.fail_fast ?? false,
      comparison: raw.test.comparison,
      ...(raw.test.judge_model === undefined ? {} : { judgeModel: raw.test.judge_model }),
      timeoutMs: secondsToMs(raw.test.timeout_s ?? DEFAULT_RUN_TIMEOUT_S),
      statsCluster: raw.test.stats?.cluster ?? 'test',
    },
    agent: {
      maxSteps: raw.agent.max_steps,
      maxResultRows: raw.agent.max_result_rows,
      queryTimeoutMs: secondsToMs(raw.agent.query_timeout_s),
      queryMemoryLimit: raw.agent.query_memory_limit.trim(),
    },
    warnings,
  };
}

/**
 * The document as the blocks below read it: `null` blocks left out, the single-provider `llm`
 * block of older projects moved under `llm.providers`, and values that were only an
 * unresolved placeholder left out outside `databases` and `llm.providers` (there, each entry
 * keeps track of its own).
 */
function normalizeDocument(
  value: Mapping,
  source: YamlSource,
  warnings: string[],
): { document: Mapping; unresolved: UnresolvedValue[] } {
  const document: Mapping = {};
  let unresolved = source.unresolved;
  for (const [key, child] of Object.entries(value)) if (child !== null) document[key] = child;
  const llm = document.llm;
  if (isMapping(llm) && 'provider' in llm && !('providers' in llm)) {
    // The original nao's layout before several providers: `llm: {provider, api_key, …}`.
    const { annotation_model: annotationModel, meta, model, ...provider } = llm;
    unresolved = unresolved.map((entry) =>
      entry.path[0] === 'llm' && typeof entry.path[1] === 'string' && entry.path[1] in provider
        ? { ...entry, path: ['llm', 'providers', 0, ...entry.path.slice(1)] }
        : entry,
    );
    document.llm = {
      providers: [provider],
      ...(meta === undefined ? {} : { meta }),
      ...(annotationModel === undefined ? {} : { annotation_model: annotationModel }),
      ...(model === undefined ? {} : { model }),
    };
    warnings.push(
      `${CONFIG_FILE}: \`llm\` declares a single provider inline (line ${source.lineOf(['llm']) ?? '?'}), a deprecated layout; ` +
        'it is read as `llm.providers[0]`. Move it under `llm.providers` to configure several providers and their models.',
    );
  }
  for (const entry of unresolved) {
    const [head] = entry.path;
    if (head === 'databases' || (head === 'llm' && entry.path[1] === 'providers')) continue;
    if (isWholePlaceholder(value, entry.path)) deleteAt(document, entry.path);
  }
  return { document, unresolved };
}

function isWholePlaceholder(value: unknown, at: YamlPath): boolean {
  let node = value;
  for (const part of at) node = (node as Mapping | undefined)?.[part as string];
  return node === '';
}

function deleteAt(document: Mapping, at: YamlPath): void {
  let node: unknown = document;
  for (const part of at.slice(0, -1)) node = (node as Mapping | undefined)?.[part as string];
  const last = at[at.length - 1];
  if (isMapping(node) && typeof last === 'string') delete node[last];
}

function readDatabases(options: {
  document: Mapping;
  source: YamlSource;
  unresolved: UnresolvedValue[];
  projectDir: string;
  problems: string[];
  warnings: string[];
}): { usable: DatabaseConfig[]; unavailable: UnavailableDatabase[] } {
  const { document, source, problems, warnings } = options;
  const usable: DatabaseConfig[] = [];
  const unavailable: UnavailableDatabase[] = [];
  const entries = document.databases ?? [];
  if (!Array.isArray(entries)) {
    problems.push(problemAt(['databases'], 'expected a list of databases', source));
    return { usable, unavailable };
  }
  const seen = new Map<string, number>();
  entries.forEach((entry: unknown, index) => {
    const at = ['databases', index];
    if (!isMapping(entry)) {
      problems.push(problemAt(at, 'expected a mapping with `name` and `type`', source));
      return;
    }
    const name = typeof entry.name === 'string' ? entry.name.trim() : '';
    if (name === '') {
      problems.push(problemAt([...at, 'name'], 'every database needs a `name`', source));
      return;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push(
        problemAt([...at, 'name'], `duplicate database name "${name}" (also databases[${first}])`, source),
      );
      return;
    }
    seen.set(name, index);
    const type = entry.type;
    if (isDatabaseType(type)) {
      const missing = unresolvedUnder(options.unresolved, at);
      if (missing.length > 0) {
        // A half-specified connection is never tried: its runs say which values are missing.
        const error = new UnresolvedValueError({ what: `Database "${name}" (${type})`, values: missing });
        unavailable.push({ name, type, reason: error.message });
        return;
      }
      const parsed = DATABASE_DEFINITIONS[type].schema.safeParse(entry);
      if (!parsed.success) {
        problems.push(...zodProblems(parsed.error, at, source));
        return;
      }
      usable.push(resolvePaths(parsed.data as DatabaseConfig, options.projectDir));
      return;
    }
    if (isOriginalOnlyType(type)) {
      const line = source.lineOf([...at, 'type']);
      const reason =
        `Database "${name}" is of type ${type}, which the original nao connects to and this nao cannot query yet ` +
        `(it runs ${DATABASE_TYPES.join(', ')}).`;
      unavailable.push({ name, type: type as string, reason });
      warnings.push(
        `${CONFIG_FILE}: databases[${index}] "${name}" (line ${line ?? '?'}) is of type ${type}, which nao cannot query yet; ` +
          'runs that need it fail, the others run.',
      );
      return;
    }
    const known = [...DATABASE_TYPES, ...ORIGINAL_ONLY_DATABASE_TYPES];
    const hint = typeof type === 'string' ? didYouMean(type, known) : null;
    problems.push(
      problemAt(
        [...at, 'type'],
        `${type === undefined ? 'missing' : `unknown database type ${JSON.stringify(type)}`}: expected one of ${DATABASE_TYPES.join(', ')}` +
          ` (or a type of the original nao: ${ORIGINAL_ONLY_DATABASE_TYPES.join(', ')})${hint === null ? '' : ` — did you mean \`${hint}\`?`}`,
        source,
      ),
    );
  });
  return { usable, unavailable };
}

function resolvePaths(database: DatabaseConfig, projectDir: string): DatabaseConfig {
  if (database.type !== 'duckdb' && database.type !== 'sqlite') return database;
  if (database.path === IN_MEMORY) return database;
  return { ...database, path: path.resolve(projectDir, database.path) };
}

/** Stands in for a value with unresolved placeholders while its entry is checked. */
const STAND_IN = 'unresolved';

function readProviders(options: {
  document: Mapping;
  source: YamlSource;
  unresolved: UnresolvedValue[];
  problems: string[];
  warnings: string[];
}): ProviderConfig[] {
  const { document, source, problems, warnings } = options;
  const llm = document.llm;
  const entries = isMapping(llm) ? (llm.providers ?? []) : [];
  if (!Array.isArray(entries)) {
    problems.push(problemAt(['llm', 'providers'], 'expected a list of providers', source));
    return [];
  }
  const providers: ProviderConfig[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry: unknown, index) => {
    const at = ['llm', 'providers', index];
    const missing = unresolvedUnder(options.unresolved, at).filter(
      (value) => value.path.length === at.length + 1,
    );
    const input = isMapping(entry) ? { ...entry } : entry;
    if (isMapping(input)) for (const value of missing) input[value.path[at.length] as string] = STAND_IN;
    const parsed = providerSchema.safeParse(input);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, at, source));
      return;
    }
    const provider: ProviderConfig = { ...parsed.data };
    if (missing.length > 0) provider.unresolved = unresolvedFields(missing, at.length, provider);
    const id = providerAddress(provider);
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(
        problemAt(
          [...at, provider.name === undefined ? 'provider' : 'name'],
          `provider ${id} is configured more than once (also llm.providers[${first}])`,
          source,
        ),
      );
      return;
    }
    seen.set(id, index);
    if (isUnsupportedProviderKind(provider.provider)) {
      warnings.push(
        `${CONFIG_FILE}: llm.providers[${index}] is ${provider.provider} (line ${source.lineOf([...at, 'provider']) ?? '?'}), ` +
          `which nao cannot call yet; runs of ${provider.provider}: models fail, the others run.`,
      );
    }
    providers.push(provider);
  });
  return providers;
}

/** Takes the stand-ins out again: those fields read as not given, and say why where they are used. */
function unresolvedFields(
  missing: UnresolvedValue[],
  depth: number,
  provider: ProviderConfig,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const value of missing) {
    const field = value.path[depth] as string;
    fields[field] = describeUnresolved([value]);
    delete (provider as Record<string, unknown>)[field];
  }
  return fields;
}

function zodProblems(error: z.ZodError, prefix: YamlPath, source: YamlSource): string[] {
  return error.issues.map((issue) => {
    const issuePath = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    return problemAt([...prefix, ...issuePath], issue.message, source);
  });
}

function problemAt(issuePath: YamlPath, message: string, source: YamlSource): string {
  const where = issuePath.length === 0 ? '(top level)' : formatYamlPath(issuePath);
  const line = source.lineOf(issuePath);
  return `${where}: ${message}${line === null ? '' : ` (line ${line})`}`;
}

/** Whole milliseconds, at least 1: a timer of 0 ms would cancel every query at once. */
function secondsToMs(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}
