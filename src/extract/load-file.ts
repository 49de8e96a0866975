/**
 * A large sandbox's tables, loaded by nao itself into a DuckDB database file that its sandbox
 * process attaches and copies from. Sent over the process channel instead, a million rows
 * cost seconds of serialising and rebuilding JavaScript values on both sides; here DuckDB's
 * own storage carries them, and the load runs while the process starts.
 *
 * The load is the one of load-tables.ts, in an engine of its own that runs no model-written
 * SQL: only the sandbox process's engine does. The file is stored uncompressed, since it is
 * read once, a moment later.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../warehouse/index.js';
import { type LoadedTable, loadTables, type SourceTable } from './load-tables.js';

/** A table in the file: `name` there holds the sandbox table `id`. */
export interface FileTable {
  id: string;
  name: string;
}

/** Loads `tables` and writes them to `file` (which must not exist); returns what was loaded. */
export async function writeLoadFile(options: {
  tables: readonly SourceTable[];
  file: string;
  threads: number;
}): Promise<{ loaded: LoadedTable[]; fileTables: FileTable[] }> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'nao-load-'));
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
      scratchFile: (name) => path.join(scratch, name),
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
    await rm(scratch, { recursive: true, force: true });
  }
}
