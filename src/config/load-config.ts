import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../errors/index.js';
import { templateEnv } from './env-template.js';
import { findUnknownKeys, formatUnknownKey } from './known-keys.js';
import type { NaoConfig } from './nao-config.js';
import { configSchema, DEFAULT_MODELS, DEFAULT_RUN_TIMEOUT_S, type RawConfig } from './schema.js';
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
 * `ConfigNotFoundError`, `MissingEnvError` or `ConfigInvalidError`; unknown keys and
 * deprecated blocks come back as `warnings`.
 */
export async function loadConfig(options: {
  projectDir: string;
  env: Record<string, string | undefined>;
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
  return parseConfig({ text, projectDir, env: options.env });
}

/** Validates config text (see `loadConfig`); split out so tests need no files. */
export function parseConfig(options: {
  text: string;
  projectDir: string;
  env: Record<string, string | undefined>;
}): NaoConfig {
  const projectDir = path.resolve(options.projectDir);
  const configPath = path.join(projectDir, CONFIG_FILE);
  const templated = templateEnv({ text: options.text, env: options.env, file: CONFIG_FILE });
  const source = parseYamlSource({ text: templated.text, envValues: templated.values });
  if (source.errors.length > 0) {
    throw new ConfigInvalidError({
      file: CONFIG_FILE,
      problems: source.errors.map((error) =>
        error.position === null ? error.message : `${error.message} (line ${error.position.line})`,
      ),
    });
  }
  const value = source.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigInvalidError({
      file: CONFIG_FILE,
      problems: ['the file must be a mapping of keys (project_name, databases, llm, test)'],
    });
  }

  const parsed = configSchema.safeParse(value);
  const problems = parsed.success
    ? duplicateNameProblems(parsed.data, source)
    : zodProblems(parsed.error, source);
  if (problems.length > 0) throw new ConfigInvalidError({ file: CONFIG_FILE, problems });
  const raw = parsed.data as RawConfig;

  const warnings = findUnknownKeys(value).map(
    (unknown) => `${CONFIG_FILE}: ${formatUnknownKey(unknown, source.lineOf(unknown.path))}`,
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
    databases: raw.databases.map((database) =>
      database.type === 'duckdb' || database.type === 'sqlite'
        ? { ...database, path: path.resolve(projectDir, database.path) }
        : database,
    ),
    llm: {
      providers: raw.llm.providers,
      ...(raw.llm.meta?.costs === undefined ? {} : { deprecatedCosts: raw.llm.meta.costs }),
    },
    test: {
      models: raw.test.models ?? [...DEFAULT_MODELS],
      threads: raw.test.threads ?? 1,
      comparison: raw.test.comparison,
      ...(raw.test.judge_model === undefined ? {} : { judgeModel: raw.test.judge_model }),
      timeoutMs: secondsToMs(raw.test.timeout_s ?? DEFAULT_RUN_TIMEOUT_S),
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

function zodProblems(error: z.ZodError, source: YamlSource): string[] {
  return error.issues.map((issue) => {
    const issuePath = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    return problemAt(issuePath, issue.message, source);
  });
}

function problemAt(issuePath: YamlPath, message: string, source: YamlSource): string {
  const where = issuePath.length === 0 ? '(top level)' : formatYamlPath(issuePath);
  const line = source.lineOf(issuePath);
  return `${where}: ${message}${line === null ? '' : ` (line ${line})`}`;
}

function duplicateNameProblems(config: RawConfig, source: YamlSource): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  config.databases.forEach((database, index) => {
    const first = seen.get(database.name);
    if (first === undefined) seen.set(database.name, index);
    else
      problems.push(
        problemAt(
          ['databases', index, 'name'],
          `duplicate database name "${database.name}" (also databases[${first}])`,
          source,
        ),
      );
  });
  const compatible = new Map<string, number>();
  config.llm.providers.forEach((provider, index) => {
    if (provider.provider !== 'openaiCompatible' || provider.name === undefined) return;
    const first = compatible.get(provider.name);
    if (first === undefined) compatible.set(provider.name, index);
    else
      problems.push(
        problemAt(
          ['llm', 'providers', index, 'name'],
          `duplicate openaiCompatible provider name "${provider.name}" (also llm.providers[${first}])`,
          source,
        ),
      );
  });
  return problems;
}

/** Whole milliseconds, at least 1: a timer of 0 ms would cancel every query at once. */
function secondsToMs(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}
