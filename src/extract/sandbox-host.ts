/**
 * The DuckDB engines extraction jobs run in. Each job is a connection of its own, and its
 * tables are that connection's temporary tables, which no other connection can name or read.
 * An engine costs about 12 ms of CPU to create, so small jobs share one long-lived engine per
 * settings; large ones get their own. From its creation an engine can read only its private
 * folder (and the load file's), loads no extension, never spills to disk and runs in UTC; its
 * memory limit and configuration are locked before any model-written SQL runs.
 */

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { FreshConnections, quoteLiteral } from '../warehouse/index.js';

/** One sandbox inside a host: a connection whose temporary tables are the sandbox's. */
export interface HostedSandbox {
  /** The sandbox's connection; tables go in its private `temp` catalog. */
  connection: DuckDBConnection;
  /** A path for a file of this sandbox only, in the one folder the engine may read. */
  scratchFile(name: string): string;
}

export class SandboxHost {
  private closed = false;
  /** Shared engines open the next sandbox's connection ahead. */
  private readonly connections: FreshConnections | null;

  private constructor(
    private readonly instance: DuckDBInstance,
    /** The only folder the engine may read; removed on close. */
    private readonly dir: string,
    spareConnection: boolean,
  ) {
    this.connections = spareConnection ? new FreshConnections(instance) : null;
  }

  /**
   * Creates an engine. With `memoryLimitBytes` it is locked at once (a shared engine);
   * without, `lock()` must be called before any model-written SQL runs.
   */
  static async create(options: {
    threads: number;
    memoryLimitBytes?: number;
    /** Keep a connection ready for the next sandbox: for engines that serve many. */
    spareConnection?: boolean;
    /** Where the engine's private folder goes; default the system's temporary folder. */
    parentDir?: string | undefined;
    /** A folder the engine may read besides its own: where nao put the tables it loaded. */
    readable?: string;
  }): Promise<SandboxHost> {
    const dir = await mkdtemp(path.join(options.parentDir ?? tmpdir(), 'nao-sandbox-'));
    let instance: DuckDBInstance | undefined;
    try {
      instance = await DuckDBInstance.create(':memory:', {
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        allow_community_extensions: 'false',
        allow_unsigned_extensions: 'false',
        extension_directory: path.join(dir, 'extensions'),
        // No spilling: a query over its memory budget fails instead of filling the disk.
        temp_directory: '',
        threads: String(options.threads),
      });
      const connection = await instance.connect();
      try {
        // UTC so that casts of TIMESTAMPTZ values do not depend on the host's zone. The
        // trailing separator makes the allowed folder a prefix of its contents only.
        // Uncompressed: the only database files an engine writes are long answers, read once
        // a moment later (answer-file.ts), and compressing them cost more than the copy.
        await connection.run(
          `SET GLOBAL TimeZone = 'UTC'; SET GLOBAL force_compression = 'uncompressed'; ` +
            `SET GLOBAL allowed_directories = [${[dir, ...(options.readable === undefined ? [] : [options.readable])].map((folder) => quoteLiteral(`${folder}${path.sep}`)).join(', ')}]; ` +
            'SET GLOBAL enable_external_access = false',
        );
      } finally {
        connection.closeSync();
      }
      const host = new SandboxHost(instance, dir, options.spareConnection === true);
      if (options.memoryLimitBytes !== undefined) await host.lock(options.memoryLimitBytes);
      return host;
    } catch (error) {
      instance?.closeSync();
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Sets the memory limit and locks the configuration: no query can change either after this. */
  async lock(memoryLimitBytes: number): Promise<void> {
    const connection = await this.instance.connect();
    try {
      await connection.run(
        `SET GLOBAL memory_limit = '${Math.ceil(memoryLimitBytes)}B'; SET GLOBAL lock_configuration = true`,
      );
    } finally {
      connection.closeSync();
    }
  }

  /** Memory the engine uses now, in bytes (every database in it). */
  async memoryInUse(connection: DuckDBConnection): Promise<number> {
    const reader = await connection.runAndReadAll('SELECT sum(memory_usage_bytes) FROM duckdb_memory()');
    return Number(reader.getRows()[0]?.[0] ?? 0);
  }

  /** A fresh connection, with nothing in its temporary catalog yet. */
  async connect(): Promise<HostedSandbox> {
    if (this.closed) throw new Error('the sandbox engine is closed');
    const name = `sandbox_${randomBytes(12).toString('hex')}`;
    const connection = await (this.connections?.take() ?? this.instance.connect());
    return {
      connection,
      // Named after the sandbox rather than put in a folder of their own, which costs more.
      scratchFile: (file) => path.join(this.dir, `${name}_${file}`),
    };
  }

  /**
   * Closes the engine and removes its folder. Safe to call twice. A shared engine is closed
   * only as the process exits, when its spare connection may still be connecting: its instance
   * is left to the process then, rather than closed under a pending connect.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.connections === null) this.instance.closeSync();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

const shared = new Map<string, Promise<SandboxHost>>();

/**
 * The engine shared by every small sandbox with these settings, created on first use and
 * kept for the life of the process (its folder is removed at exit).
 */
export function sharedSandboxHost(settings: {
  threads: number;
  /** Memory limit of the whole engine, in bytes. */
  memoryLimitBytes: number;
  parentDir?: string | undefined;
}): Promise<SandboxHost> {
  const key = `${settings.threads}:${settings.memoryLimitBytes}`;
  let host = shared.get(key);
  if (host === undefined) {
    host = SandboxHost.create({ ...settings, spareConnection: true }).then((created) => {
      process.once('exit', () => created.close());
      return created;
    });
    // A failed creation is not remembered: the next sandbox tries again.
    host.catch(() => shared.delete(key));
    shared.set(key, host);
  }
  return host;
}
