/**
 * A large sandbox's tables, loaded by nao itself into a DuckDB database file that its sandbox
 * process attaches read-only and reads in place. Sent over the process channel instead, a
 * million rows cost seconds of serialising and rebuilding JavaScript values on both sides;
 * here DuckDB's own storage carries them, and the load runs while the process starts.
 *
 * The load is the one of load-tables.ts, in an engine of its own that runs no model-written
 * SQL: only the sandbox process's engine does. The file, in the process's folder, lives no
 * longer than the process: compressing it cost more than it saved.
 */
import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../warehouse/index.js';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';

/** A table in the file: `name` there holds the sandbox table `id`. */
export interface FileTable {
  id: string;
  name: string;
}

/**
 * Loads `tables` and writes them to `file` (which must not exist); returns what was loaded.
 * The loader's own files go beside it, named after it.
 */
export async function writeLoadFile(options: {
  tables: readonly SourceTable[];
  file: string;
  threads: number;
}): Promise<{ loaded: LoadedTable[]; fileTables: FileTable[] }> {
  const scratchFiles: string[] = [];
  const scratchFile = (name: string) => {
    const scratch = `${options.file}_${name}`;
    scratchFiles.push(scratch);
    return scratch;
  };
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    temp_directory: '',
    threads: String(options.threads),
  });
  try {
    const connection = await instance.connect();
    // As in the sandbox's engine: casts of TIMESTAMPTZ values must not depend on the host's zone.
    await connection.run(`SET TimeZone = 'UTC'`);
    const loaded = await loadTables({
      connection,
      tables: options.tables,
      scratchFile,
    });
    // Tables without columns exist only as their description.
    const fileTables = loaded
      .filter((table) => table.columns.length > 0)
      .map((table, index) => ({ id: table.id, name: `t${index}` }));
    const copies = fileTables.map(
      ({ id, name }) =>
        `CREATE TABLE __nao_out.main.${quoteIdentifier(name)} AS SELECT * FROM temp.main.${quoteIdentifier(id)}; `,
    );
    await connection.run(
      `SET force_compression = 'uncompressed'; ATTACH ${quoteLiteral(options.file)} AS __nao_out; ` +
        `${copies.join('')}DETACH __nao_out`,
    );
    connection.closeSync();
    return { loaded, fileTables };
  } finally {
    instance.closeSync();
    await Promise.all(scratchFiles.map((scratch) => rm(scratch, { force: true })));
  }
}
