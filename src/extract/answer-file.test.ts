import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CellValue, parseDuckDbSql } from '../warehouse/index.js';
import { readAnswerFile, readSandboxAnswer } from './answer-file.js';
import { writeLoadFile } from './load-file.js';

const ID = 'query_x';
const ROWS = 20_000;

let dir: string;
let loadFile: string;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
let answers = 0;

/** A large job as a pool worker opens one: nao's load file attached, tables named by views. */
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
  const result = await readSandboxAnswer({
    connection,
    sql,
    maxRows,
    checkpoint: () => undefined,
    file,
    large: true,
    loaded: { file: loadFile, tableIds: [ID] },
    // As the safety check hands it on.
    parsed: await parseDuckDbSql(connection, sql),
  });
  return { result, file };
}

async function readBack(result: Awaited<ReturnType<typeof answer>>['result']) {
  if (result.kind !== 'file') throw new Error(`expected a file answer, got ${result.kind}`);
  return readAnswerFile({ ...result, threads: 1 });
}

describe('a large sandbox answer', () => {
  it('that is a loaded table whole is read from the load file, as a copy reads', async () => {
    const whole = await answer(`SELECT * FROM "${ID}"`);
    expect(whole.result).toMatchObject({ kind: 'file', file: loadFile, table: ID, rowCount: ROWS });
    // Not copied: no answer file was made.
    expect(existsSync(whole.file)).toBe(false);

    const copied = await answer(`SELECT * FROM ${ID} WHERE true`);
    expect(copied.result).toMatchObject({ kind: 'file', file: copied.file, table: 'answer', rowCount: ROWS });
    if (whole.result.kind !== 'file' || copied.result.kind !== 'file') return;
    expect(whole.result.columns).toEqual(copied.result.columns);

    const rows = await readBack(whole.result);
    expect(rows).toEqual(await readBack(copied.result));
    expect(rows[0]).toEqual([0, 't0', null]);
    expect(rows[ROWS - 1]).toEqual([ROWS - 1, `t${ROWS - 1}`, '1.50']);
  });

  it.each([
    [`select * from ${ID};`, ID],
    [`FROM ${ID}`, ID],
    [`SELECT * FROM ${ID} LIMIT 5`, 'answer'],
    [`SELECT * FROM ${ID} ORDER BY k DESC`, 'answer'],
    [`SELECT DISTINCT * FROM ${ID}`, 'answer'],
    [`SELECT * EXCLUDE (amount) FROM ${ID}`, 'answer'],
    [`SELECT k FROM ${ID}`, 'answer'],
    [`WITH ${ID} AS (SELECT 1 AS k) SELECT * FROM ${ID}`, 'answer'],
    [`SELECT * FROM ${ID} AS q(a, b, c)`, 'answer'],
  ])('%s is read from table %s', async (sql, table) => {
    const { result } = await answer(sql);
    expect(result).toMatchObject({ kind: 'file', table });
  });

  it('that is a loaded table longer than the row cap is refused, and no file is made', async () => {
    const { result, file } = await answer(`SELECT * FROM ${ID}`, ROWS - 1);
    expect(result).toEqual({ kind: 'too-many-rows' });
    expect(existsSync(file)).toBe(false);
  });
});
