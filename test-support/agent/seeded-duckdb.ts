import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { type Database, openDatabase } from '../../src/warehouse/index.js';

/**
 * A DuckDB file seeded with `setupSql`, then opened the way nao opens a configured database
 * (read-only, through warehouse/'s `openDatabase`). Closing it deletes the file.
 */
export async function openSeededDuckDb(options: { name: string; setupSql: string }): Promise<Database> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nao-agent-db-'));
  const file = path.join(dir, `${options.name}.duckdb`);
  const writer = await DuckDBInstance.create(file);
  const connection = await writer.connect();
  try {
    await connection.run(options.setupSql);
  } finally {
    connection.closeSync();
    writer.closeSync();
  }
  const database = await openDatabase({ type: 'duckdb', name: options.name, path: file });
  return {
    name: database.name,
    dialect: database.dialect,
    query: (sql, queryOptions) => database.query(sql, queryOptions),
    listTables: () => database.listTables(),
    close: async () => {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
