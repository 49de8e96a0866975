import { type AgentContext, createAgentContext } from '../agent/index.js';
import type { NaoConfig, UnavailableDatabase } from '../config/index.js';
import { prepareSandboxes } from '../extract/index.js';
import { type ResolvedModel, resolveModel } from '../llm/index.js';
import { type Database, openDatabase, WarehouseError } from '../warehouse/index.js';
import { databaseAccess } from './database-access.js';

/**
 * Everything a project's test runs share, opened once: the read-only databases, the agent's
 * context (rules, schemas, prompts) and the resolved models. The backend holds one; `--local`
 * runs hold one in the CLI process.
 */
export interface ProjectRuntime {
  /**
   * The project's configuration, with the databases that could not be opened moved from
   * `databases` to `unavailableDatabases` (their reason is the connection error).
   */
  readonly config: NaoConfig;
  readonly databases: readonly Database[];
  readonly agentContext: AgentContext;
  /** Resolves `provider:model_id` once per model (a bad string or missing key throws). */
  model(modelString: string): ResolvedModel;
  close(): Promise<void>;
}

export interface OpenProjectRuntimeOptions {
  config: NaoConfig;
  env: Record<string, string | undefined>;
  /** The transport under the provider packages (record/replay and tests replace it). */
  fetch?: typeof globalThis.fetch;
  /** Replay: every model call is answered from recordings, so a missing API key is no error. */
  allowMissingKey?: boolean;
  /** Per-query wall-clock limit for the agent's and the reference's SQL; default `agent.query_timeout_s`. */
  queryTimeoutMs?: number;
  /**
   * Told of each database that cannot be opened (an unreachable server, a wrong password): the
   * runs that need it fail with the connection error, the others run.
   */
  onUnavailableDatabase?: (database: UnavailableDatabase) => void;
  /**
   * Told once per model whose declared prices are incomplete (its cost stays unknown), as the
   * model is first resolved: models under test, a judge and the server's models alike.
   */
  onPriceWarning?: (warning: string) => void;
  /**
   * Told what an opened database warns of, once per database as it opens: a privileged role
   * that `allow_privileged_role` lets nao use.
   */
  onDatabaseWarning?: (warning: string) => void;
}

export async function openProjectRuntime(options: OpenProjectRuntimeOptions): Promise<ProjectRuntime> {
  const databases: Database[] = [];
  // Started now and not waited for: the runs' first steps (the agent's model calls and queries)
  // need no sandbox and go on while it starts; the first extraction waits for it if it must. A
  // failure resurfaces there, with its message.
  void prepareSandboxes().catch(() => undefined);
  try {
    const config = await openDatabases(options, databases);
    const agentContext = await createAgentContext({
      projectDir: config.projectDir,
      databases,
      access: await databaseAccess({ databases: config.databases, projectDir: config.projectDir }),
      unavailableDatabases: config.unavailableDatabases,
      maxResultRows: config.agent.maxResultRows,
      queryTimeoutMs: options.queryTimeoutMs ?? config.agent.queryTimeoutMs,
    });
    const models = new Map<string, ResolvedModel>();
    return {
      config,
      databases,
      agentContext,
      model(modelString) {
        let resolved = models.get(modelString);
        if (resolved === undefined) {
          resolved = resolveModel({
            modelString,
            config,
            env: options.env,
            fetch: options.fetch,
            allowMissingKey: options.allowMissingKey,
          });
          models.set(modelString, resolved);
          if (resolved.priceWarning !== null) options.onPriceWarning?.(resolved.priceWarning);
        }
        return resolved;
      },
      async close() {
        await Promise.all(databases.map((database) => database.close()));
      },
    };
  } catch (error) {
    await Promise.all(databases.map((database) => database.close()));
    throw error;
  }
}

/**
 * Opens every configured database into `opened`, and returns the configuration the runs see:
 * one that cannot connect joins `unavailableDatabases`, so only the runs that query it fail
 * (each with the connection error, naming the host), and the results file is still written.
 */
async function openDatabases(options: OpenProjectRuntimeOptions, opened: Database[]): Promise<NaoConfig> {
  const { config } = options;
  const unavailable: UnavailableDatabase[] = [];
  const usable = [];
  for (const database of config.databases) {
    try {
      opened.push(
        await openDatabase(database, {
          projectDir: config.projectDir,
          memoryLimit: config.agent.queryMemoryLimit,
          ...(options.onDatabaseWarning === undefined ? {} : { onWarning: options.onDatabaseWarning }),
        }),
      );
      usable.push(database);
    } catch (error) {
      if (!(error instanceof WarehouseError && error.code === 'CONNECTION_FAILED')) throw error;
      const failed = { name: database.name, type: database.type, reason: error.message };
      unavailable.push(failed);
      options.onUnavailableDatabase?.(failed);
    }
  }
  if (unavailable.length === 0) return config;
  return {
    ...config,
    databases: usable,
    unavailableDatabases: [...config.unavailableDatabases, ...unavailable],
  };
}
