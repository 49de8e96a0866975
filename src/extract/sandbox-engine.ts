/**
 * The DuckDB engines extraction jobs run in (extraction-job.ts). From its creation an engine
 * can read and write only the folders it is given, loads no extension, never spills to disk
 * and runs in UTC; its memory limit and configuration are locked before it runs anything of a
 * job's. Each job is a connection of its own: its tables are that connection's temporary
 * tables, which no other connection can name and which go when it closes.
 */
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { quoteLiteral } from '../warehouse/duckdb/index.js';

export async function createSandboxEngine(options: {
  threads: number;
  memoryLimitBytes: number;
  /** The folders the engine may use: the first holds its own files. */
  folders: readonly [string, ...string[]];
}): Promise<DuckDBInstance> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    allow_unsigned_extensions: 'false',
    extension_directory: path.join(options.folders[0], 'extensions'),
    // No spilling: a query over its memory budget fails instead of filling the disk.
    temp_directory: '',
    threads: String(options.threads),
  });
  try {
    const connection = await instance.connect();
    try {
      // UTC so that casts of TIMESTAMPTZ values do not depend on the host's zone. The trailing
      // separator makes each allowed folder a prefix of its contents only. Uncompressed: the
      // only database files an engine writes are long answers, read once a moment later
      // (answer-file.ts), and compressing them cost more than the copy.
      const folders = options.folders.map((folder) => quoteLiteral(`${folder}${path.sep}`));
      await connection.run(
        `SET GLOBAL TimeZone = 'UTC'; SET GLOBAL force_compression = 'uncompressed'; ` +
          `SET GLOBAL allowed_directories = [${folders.join(', ')}]; SET GLOBAL enable_external_access = false; ` +
          `SET GLOBAL memory_limit = '${Math.ceil(options.memoryLimitBytes)}B'; SET GLOBAL lock_configuration = true`,
      );
    } finally {
      connection.closeSync();
    }
    return instance;
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}
