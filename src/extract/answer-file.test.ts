import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CellValue, parseDuckDbSql } from '../warehouse/index.js';
import { loadedTableWhole, readAnswerFile, writeAnswerFile } from './answer-file.js';
import { writeLoadFile } from './load-file.js';

const ID = 'query_x';
const ROWS = 20_000;

let dir: string;
let loadFile: string;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
let answers = 0;

/** A large job as a pool worker runs one: nao's load file attached, tables named by views. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nao-answer-file-'));
  loadFile = path.join(dir, 'load.duckdb');
  const rows = Array.from({ length: ROWS }, (_, i): CellValue[] => [i, `t${i}`, i % 3 === 0 ? null : '1.50']);
  await writeLoadFile({
    file: loadFile,
    threads: 1,
    tables: [
      {
        id: ID,
        columns: [
          { name: 'k', type: 'INTEGER' },
          { name: 'k', type: 'VARCHAR' },
          { name: 'amount', type: 'DECIMAL(10,2)' },
        ],
        rows,
      },
    ],
  });
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run(
    `ATTACH '${loadFile}' AS __nao_load (READ_ONLY); CREATE TEMP VIEW ${ID} AS SELECT * FROM __nao_load.main.${ID}`,
  );
});

afterAll(async () => {
  connection.closeSync();
  instance.closeSync();
  await rm(dir, { recursive: true, force: true });
});

async function answer(sql: string, maxRows = 1_000_000) {
  const file = path.join(dir, `answer_${++answers}.duckdb`);
  const result = await writeAnswerFile({ connection, sql, maxRows, checkpoint: () => undefined, file });
  return { result, file };
}

describe('a large sandbox answer', () => {
  it('is written to its file whole, and reads back in order with its columns and types', async () => {
    const { result, file } = await answer(`SELECT * FROM ${ID} ORDER BY k DESC`);
    expect(result).toMatchObject({ file, rowCount: ROWS });
    if (typeof result !== 'object') throw new Error('expected a file answer');
    expect(result.columns).toEqual([
      { name: 'k', type: 'INTEGER' },
      // As the load file names a repeated column.
      { name: 'k_1', type: 'VARCHAR' },
      { name: 'amount', type: 'DECIMAL(10,2)' },
    ]);
    const rows = await readAnswerFile({ ...result, threads: 1 });
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]).toEqual([ROWS - 1, `t${ROWS - 1}`, '1.50']);
    expect(rows[ROWS - 1]).toEqual([0, 't0', null]);
  });

  it('longer than the row cap is refused, and its file removed', async () => {
    const { result, file } = await answer(`SELECT * FROM ${ID}`, ROWS - 1);
    expect(result).toBe('too-many-rows');
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    ['several statements', `SELECT 1; SELECT * FROM ${ID}`],
    ['a comment after the semicolon', `SELECT * FROM ${ID}; -- all of it`],
  ])('is left to be read as rows for SQL that cannot be wrapped: %s', async (_label, sql) => {
    const { result, file } = await answer(sql);
    expect(result).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('that is a loaded table whole is read from the load file, as a copy of it reads', async () => {
    const sql = `SELECT * FROM "${ID}"`;
    const whole = await loadedWhole(sql);
    expect(whole).toMatchObject({ file: loadFile, table: ID, rowCount: ROWS });
    const copied = await answer(`SELECT * FROM ${ID} WHERE true`);
    if (typeof whole !== 'object' || typeof copied.result !== 'object')
      throw new Error('expected two file answers');
    expect(whole.columns).toEqual(copied.result.columns);
    expect(await readAnswerFile({ ...whole, threads: 1 })).toEqual(
      await readAnswerFile({ ...copied.result, threads: 1 }),
    );
  });

  it.each([
    [`select * from ${ID};`, true],
    [`FROM ${ID}`, true],
    [`SELECT * FROM ${ID} LIMIT 5`, false],
    [`SELECT * FROM ${ID} ORDER BY k DESC`, false],
    [`SELECT DISTINCT * FROM ${ID}`, false],
    [`SELECT * EXCLUDE (amount) FROM ${ID}`, false],
    [`SELECT k FROM ${ID}`, false],
    [`WITH ${ID} AS (SELECT 1 AS k) SELECT * FROM ${ID}`, false],
    [`SELECT * FROM ${ID} AS q(a, b, c)`, false],
  ])('%s is the loaded table whole: %s', async (sql, whole) => {
    expect(await loadedWhole(sql)).toEqual(whole ? expect.objectContaining({ table: ID }) : undefined);
  });

  it('that is a loaded table longer than the row cap is refused', async () => {
    expect(await loadedWhole(`SELECT * FROM ${ID}`, ROWS - 1)).toBe('too-many-rows');
  });
});

/** As the worker asks, with the safety check's parse of the SQL. */
async function loadedWhole(sql: string, maxRows = 1_000_000) {
  const parsed = await parseDuckDbSql(connection, sql);
  return loadedTableWhole({ connection, maxRows, loadFile, tableIds: [ID], parsed });
}
