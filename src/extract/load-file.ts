/**
 * A large sandbox's tables, loaded by nao into a DuckDB file that each of its extraction jobs
 * attaches read-only: over the process channel a million rows cost seconds of serialising.
 * Stored uncompressed: compressing cost more than it saved.
 */
import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';

/**
 * Loads `tables` into the database file `file` (which must not exist), each named after its
 * id; returns what was loaded. The loader's own files go beside it, named after it.
 */
export async function writeLoadFile(options: {
  tables: readonly SourceTable[];
  file: string;
  threads: number;
}): Promise<LoadedTable[]> {
  const scratchFiles: string[] = [];
  const scratchFile = (name: string) => {
    const scratch = `${options.file}_${name}`;
    scratchFiles.push(scratch);
    return scratch;
  };
  const instance = await DuckDBInstance.create(options.file, {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    force_compression: 'uncompressed',
    temp_directory: '',
    threads: String(options.threads),
  });
  try {
    const connection = await instance.connect();
    // As in the sandbox's engine: casts of TIMESTAMPTZ values must not depend on the host's zone.
    await connection.run(`SET TimeZone = 'UTC'`);
    const loaded = await loadTables({ connection, tables: options.tables, scratchFile, target: 'database' });
    connection.closeSync();
    return loaded;
  } finally {
    instance.closeSync();
    await Promise.all(scratchFiles.map((scratch) => rm(scratch, { force: true })));
  }
}
