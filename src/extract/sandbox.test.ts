import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobLost, naoTempFolder } from '../process-pool/index.js';
import { ProcessPool } from '../process-pool/process-pool.js';
import type { CellValue, ColumnInfo } from '../warehouse/index.js';
import type { SourceTable } from './load-tables.js';
import { INLINE_TABLES_MAX_CELLS, Sandbox, withSandbox } from './sandbox.js';

const ID = 'query_0a1b2c3d';
/** Rows of an answer long enough that the reader switches from streaming to a temp table. */
const LONG_ANSWER_ROWS = 50_000;

function table(columns: [string, string][], rows: CellValue[][], id = ID): SourceTable {
  return { id, columns: columns.map(([name, type]): ColumnInfo => ({ name, type })), rows };
}

/** Rows of one column enough for a job to go through a load file, read by an engine of its own. */
function bigRows(): CellValue[][] {
  return Array.from({ length: INLINE_TABLES_MAX_CELLS + 1 }, (_, i): CellValue[] => [i]);
}

/** Two strings of a million characters, whose levenshtein DuckDB never interrupts. */
const LONG_STRINGS = {
  id: 'query_long',
  columns: [
    { name: 'a', type: 'VARCHAR' },
    { name: 'b', type: 'VARCHAR' },
  ],
  rows: [['ab'.repeat(500_000), 'ba'.repeat(500_000)]],
} satisfies SourceTable;
const UNINTERRUPTIBLE = 'SELECT levenshtein(a, b) AS d FROM query_long';

/** The files of each sandbox's load folder in nao's temporary folder. */
async function loadFolderFiles(): Promise<string[][]> {
  const folders = (await readdir(naoTempFolder())).filter((name) => name.startsWith('load-'));
  return Promise.all(folders.map((folder) => readdir(path.join(naoTempFolder(), folder))));
}

async function selectAll(source: SourceTable, sql = `SELECT * FROM "${source.id}"`) {
  return withSandbox({ tables: [source] }, async (sandbox) => ({
    loaded: sandbox.tables[0]!,
    result: await sandbox.query(sql),
  }));
}

describe('loading results', () => {
  it('keeps extreme and exact values of known types', async () => {
    const rows: CellValue[][] = [
      [
        '9223372036854775807',
        '1234567890123456789012345678.0123456789',
        '2024-02-29T23:59:59.999999',
        '2024-01-01T10:00:00.000001+02:00',
        '2024-02-29',
        0.1,
        true,
        'text',
      ],
      [
        '-9223372036854775808',
        '-0.0000000001',
        '1969-12-31T00:00:00',
        '2024-01-01T00:00:00Z',
        '0001-01-01',
        -1e300,
        false,
        '',
      ],
      [9007199254740991, '0.0000000000', null, null, null, null, null, null],
    ];
    const source = table(
      [
        ['big', 'BIGINT'],
        ['exact', 'DECIMAL(38,10)'],
        ['at', 'TIMESTAMP'],
        ['at_tz', 'timestamp with time zone'],
        ['day', 'date'],
        ['ratio', 'DOUBLE'],
        ['flag', 'BOOLEAN'],
        ['label', 'VARCHAR'],
      ],
      rows,
    );
    const { loaded, result } = await selectAll(source);
    expect(loaded.columns.map((column) => column.type)).toEqual([
      'BIGINT',
      'DECIMAL(38,10)',
      'TIMESTAMP',
      'TIMESTAMP WITH TIME ZONE',
      'DATE',
      'DOUBLE',
      'BOOLEAN',
      'VARCHAR',
    ]);
    expect(result).toMatchObject({ success: true });
    if (!result.success) return;
    expect(result.rows).toEqual([
      [
        '9223372036854775807',
        '1234567890123456789012345678.0123456789',
        '2024-02-29T23:59:59.999999',
        '2024-01-01T08:00:00.000001Z',
        '2024-02-29',
        0.1,
        true,
        'text',
      ],
      [
        '-9223372036854775808',
        '-0.0000000001',
        '1969-12-31T00:00:00',
        '2024-01-01T00:00:00Z',
        '0001-01-01',
        -1e300,
        false,
        '',
      ],
      [9007199254740991, '0.0000000000', null, null, null, null, null, null],
    ]);
  });

  it('computes exactly on loaded decimals and big integers', async () => {
    const source = table(
      [
        ['amount', 'DECIMAL(38,10)'],
        ['n', 'BIGINT'],
      ],
      [
        ['0.1000000000', '4611686018427387904'],
        ['0.2000000000', '4611686018427387903'],
      ],
    );
    const { result } = await selectAll(source, `SELECT sum(amount) AS s, sum(n) AS total FROM ${ID}`);
    expect(result).toMatchObject({ success: true, rows: [['0.3000000000', '9223372036854775807']] });
  });

  it('loads mixed-type and null-heavy columns without losing rows or keys', async () => {
    const rows: CellValue[][] = [];
    for (let i = 0; i < 30_000; i++) {
      rows.push([
        i,
        i < 29_990 ? null : `late ${i}`, // null-heavy: a sample would see only nulls
        i % 3 === 0 ? i : i % 3 === 1 ? `s${i}` : i + 0.5, // numbers and text mixed
        i === 29_999 ? 'not a number' : i, // declared INTEGER, one text value (SQLite)
        null, // all null, unknown type
        i % 2 === 0 ? '2024-01-02' : '2024-03-04', // dates of an unknown type
      ]);
    }
    const source = table(
      [
        ['id', 'INTEGER'],
        ['late', ''],
        ['mixed', ''],
        ['sqlite_int', 'INTEGER'],
        ['empty', ''],
        ['when', ''],
      ],
      rows,
    );
    const { loaded, result } = await selectAll(source, `SELECT * FROM ${ID} ORDER BY id`);
    expect(loaded.rowCount).toBe(30_000);
    expect(loaded.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'late', type: 'VARCHAR' },
      { name: 'mixed', type: 'VARCHAR' },
      { name: 'sqlite_int', type: 'VARCHAR' },
      { name: 'empty', type: 'VARCHAR' },
      { name: 'when', type: 'DATE' },
    ]);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.rows).toHaveLength(30_000);
    expect(result.rows[0]).toEqual([0, null, '0', '0', null, '2024-01-02']);
    expect(result.rows[1]).toEqual([1, null, 's1', '1', null, '2024-03-04']);
    expect(result.rows[2]).toEqual([2, null, '2.5', '2', null, '2024-01-02']);
    expect(result.rows[29_999]).toEqual([
      29_999,
      'late 29999',
      '29999.5',
      'not a number',
      null,
      '2024-03-04',
    ]);
    // The typed and the inferred halves of each row still belong together.
    expect(result.rows.every((row, index) => row[0] === index)).toBe(true);
    expect(result.rows.filter((row) => row[1] !== null)).toHaveLength(10);
  });

  it('keeps every column when names repeat, differ only by case or are empty', async () => {
    const source = table(
      [
        ['id', 'INTEGER'],
        ['id', 'INTEGER'],
        ['ID', 'TEXT'],
        ['', 'TEXT'],
        ['id_1', 'TEXT'],
      ],
      [[1, 2, 'x', 'y', 'z']],
    );
    const { loaded, result } = await selectAll(source);
    expect(loaded.columns.map((column) => column.name)).toEqual(['id', 'id_1', 'ID_2', 'column_4', 'id_1_1']);
    expect(result).toMatchObject({ success: true, rows: [[1, 2, 'x', 'y', 'z']] });
  });

  it('turns an empty result into an empty table with its columns', async () => {
    const source = table(
      [
        ['region', 'VARCHAR'],
        ['revenue', 'DECIMAL(18,2)'],
        ['mystery', ''],
      ],
      [],
    );
    const { loaded, result } = await selectAll(
      source,
      `SELECT region, sum(revenue) AS revenue FROM ${ID} GROUP BY region`,
    );
    expect(loaded).toEqual({
      id: ID,
      rowCount: 0,
      truncated: false,
      columns: [
        { name: 'region', type: 'VARCHAR' },
        { name: 'revenue', type: 'DECIMAL(18,2)' },
        { name: 'mystery', type: 'VARCHAR' },
      ],
    });
    expect(result).toEqual({
      success: true,
      columns: [
        { name: 'region', type: 'VARCHAR' },
        { name: 'revenue', type: 'DECIMAL(38,2)' },
      ],
      rows: [],
    });
  });

  it('refuses rows that do not have one value per column', async () => {
    await expect(Sandbox.open({ tables: [table([['a', 'INTEGER']], [[1, 2]])] })).rejects.toMatchObject({
      code: 'SANDBOX_BAD_RESULT',
    });
  });

  it('refuses two ids that DuckDB would treat as one table', async () => {
    const first = table([['a', 'INTEGER']], [[1]], 'query_abc');
    const second = table([['a', 'INTEGER']], [[2]], 'QUERY_ABC');
    await expect(Sandbox.open({ tables: [first, second] })).rejects.toMatchObject({
      code: 'SANDBOX_DUPLICATE_TABLE',
    });
  });
});

describe('running model SQL', () => {
  const rows: CellValue[][] = Array.from({ length: 20 }, (_, i) => [i, i % 2 === 0 ? 'even' : 'odd']);
  const source = table(
    [
      ['n', 'BIGINT'],
      ['parity', 'VARCHAR'],
    ],
    rows,
  );
  let hostDir: string;
  let hostFile: string;

  beforeAll(async () => {
    hostDir = await mkdtemp(path.join(tmpdir(), 'nao-sandbox-host-'));
    hostFile = path.join(hostDir, 'precious.csv');
    await writeFile(hostFile, 'original content\n');
  });

  afterAll(async () => {
    await rm(hostDir, { recursive: true, force: true });
  });

  it.each([
    ['COPY TO over a host file', () => `COPY ${ID} TO '${hostFile}'`],
    ['COPY of a query TO a host file', () => `COPY (SELECT * FROM ${ID}) TO '${hostFile}' (FORMAT csv)`],
    ['EXPORT DATABASE into the host folder', () => `EXPORT DATABASE '${path.join(hostDir, 'export')}'`],
    ['a SELECT then a COPY', () => `SELECT 1 FROM ${ID}; COPY ${ID} TO '${hostFile}'`],
    ['reading the host file', () => `SELECT * FROM ${ID}, read_csv('${hostFile}')`],
    [
      'ATTACH a new database in the host folder',
      () => `ATTACH '${path.join(hostDir, 'new.duckdb')}' AS other`,
    ],
  ])('refuses %s and leaves host files untouched', async (_label, sql) => {
    await withSandbox({ tables: [source] }, async (sandbox) => {
      const result = await sandbox.query(sql());
      expect(result).toMatchObject({ success: false, kind: 'unsafe' });
    });
    expect(await readFile(hostFile, 'utf8')).toBe('original content\n');
    expect(await readdir(hostDir)).toEqual(['precious.csv']);
  });

  it('stops a runaway query at its timeout and stays usable', async () => {
    await withSandbox({ tables: [source], timeoutMs: 300 }, async (sandbox) => {
      const started = performance.now();
      const result = await sandbox.query(`SELECT count(*) FROM ${ID}, range(1000000000000)`);
      expect(result).toMatchObject({
        success: false,
        kind: 'timeout',
        error: expect.stringContaining('0.3 s'),
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(await sandbox.query(`SELECT count(*) AS n FROM ${ID}`)).toMatchObject({
        success: true,
        rows: [[20]],
      });
    });
  });

  it('kills a query that ignores its interrupt with its worker, and stays usable', async () => {
    const sandbox = await Sandbox.open({
      tables: [source, LONG_STRINGS],
      timeoutMs: 300,
      interruptGraceMs: 200,
    });
    try {
      const started = performance.now();
      const result = await sandbox.query(UNINTERRUPTIBLE);
      expect(result).toMatchObject({
        success: false,
        kind: 'timeout',
        error: expect.stringMatching(/longer than 0\.3 s.*ignored the interrupt/),
      });
      expect(performance.now() - started).toBeLessThan(1_500);
      // The next query is a job like any other, in whichever worker is free.
      expect(await sandbox.query(`SELECT count(*) AS n FROM ${ID}`)).toMatchObject({
        success: true,
        rows: [[20]],
      });
    } finally {
      await sandbox.close();
    }
  });

  it('kills no other query with one past its deadline', async () => {
    await withSandbox({ tables: [source] }, async (sibling) => {
      await withSandbox({ tables: [LONG_STRINGS], timeoutMs: 300, interruptGraceMs: 100 }, async (hog) => {
        const finished: string[] = [];
        const honest = sibling
          .query(
            `SELECT count(*) AS c FROM range(300000000) t(r), (SELECT 1 FROM ${ID} LIMIT 1) WHERE r % 7 = 3`,
          )
          .finally(() => finished.push('sibling'));
        const killed = hog.query(UNINTERRUPTIBLE).finally(() => finished.push('hog'));
        expect(await killed).toMatchObject({ success: false, kind: 'timeout' });
        expect(await honest).toEqual({
          success: true,
          columns: [{ name: 'c', type: 'BIGINT' }],
          rows: [[42857143]],
        });
        // The sibling's query was still running when the hog's worker was killed.
        expect(finished).toEqual(['hog', 'sibling']);
      });
    });
  });

  it('stops a billion-row answer at the row cap while streaming it', async () => {
    await withSandbox({ tables: [source], maxResultRows: 1000 }, async (sandbox) => {
      const started = performance.now();
      expect(await sandbox.query(`SELECT * FROM range(1000000000), ${ID}`)).toMatchObject({
        success: false,
        kind: 'too-many-rows',
        error: expect.stringContaining('more than 1000 rows'),
      });
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  });

  it("brings back a long answer without text columns from an engine of the job's own", async () => {
    const count = 3 * LONG_ANSWER_ROWS;
    const tables = [source, table([['k', 'INTEGER']], bigRows(), 'query_big')];
    await withSandbox({ tables }, async (sandbox) => {
      const result = await sandbox.query(
        `SELECT r AS n, r * 0.5 AS half FROM range(${count}) t(r), (SELECT 1 FROM ${ID} LIMIT 1) ORDER BY r`,
      );
      if (!result.success) throw new Error(result.error);
      expect(result.rows).toHaveLength(count);
      expect(result.rows[count - 1]).toEqual([count - 1, ((count - 1) * 0.5).toFixed(1)]);
      // The answer's file is gone once read: a long suite does not fill the disk with them.
      expect(await loadFolderFiles()).toEqual([['load.duckdb']]);
    });
    // And the load folder goes with the sandbox.
    expect(await loadFolderFiles()).toEqual([]);
  });

  it('stops a billion-row answer at a row cap past what is streamed', async () => {
    await withSandbox({ tables: [source], maxResultRows: 2 * LONG_ANSWER_ROWS }, async (sandbox) => {
      const started = performance.now();
      expect(await sandbox.query(`SELECT * FROM range(1000000000), ${ID}`)).toMatchObject({
        success: false,
        kind: 'too-many-rows',
      });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await sandbox.query(`SELECT n FROM ${ID} LIMIT 1`)).toMatchObject({ success: true });
    });
  });

  it.each([
    ["the worker's engine", [source]],
    ["an engine of the job's own", [source, table([['k', 'INTEGER']], bigRows(), 'query_big')]],
  ])('brings a long answer back whole, in order and typed, from %s', async (_label, tables) => {
    const count = 3 * LONG_ANSWER_ROWS;
    const sql =
      `SELECT r AS n, r AS n, 'v' || r AS t, CASE WHEN r % 3 = 0 THEN NULL ELSE r * 1.5 END AS x, ` +
      `DATE '2024-01-01' + (r % 100)::INTEGER AS d FROM range(${count}) t(r), (SELECT 1 FROM ${ID} LIMIT 1) ORDER BY r DESC`;
    await withSandbox({ tables }, async (sandbox) => {
      const result = await sandbox.query(sql);
      if (!result.success) throw new Error(result.error);
      expect(result.columns.map((column) => column.name)).toEqual(['n', 'n', 't', 'x', 'd']);
      expect(result.columns.map((column) => column.type)).toEqual([
        'BIGINT',
        'BIGINT',
        'VARCHAR',
        'DECIMAL(21,1)',
        'DATE',
      ]);
      expect(result.rows).toHaveLength(count);
      const expected = (r: number) => [
        r,
        r,
        `v${r}`,
        r % 3 === 0 ? null : (r * 1.5).toFixed(1),
        new Date(Date.UTC(2024, 0, 1 + (r % 100))).toISOString().slice(0, 10),
      ];
      for (const r of [0, 1, 2, count - 1, count - 2, LONG_ANSWER_ROWS]) {
        expect(result.rows[count - 1 - r]).toEqual(expected(r));
      }
      expect(result.rows.every((row, index) => row[0] === count - 1 - index)).toBe(true);
      // The next answer reuses nothing of this one.
      expect(await sandbox.query(sql.replace('ORDER BY r DESC', 'ORDER BY r'))).toMatchObject({
        success: true,
        rows: expect.arrayContaining([[0, 0, 'v0', null, '2024-01-01']]),
      });
      // SQL that cannot be wrapped as a subquery (a comment after its semicolon) is read as rows.
      const commented = await sandbox.query(`${sql}; -- every row`);
      if (!commented.success) throw new Error(commented.error);
      expect(commented.rows).toEqual(result.rows);
    });
  });

  it('refuses nonsensical options', async () => {
    await expect(Sandbox.open({ tables: [source], timeoutMs: 0 })).rejects.toMatchObject({
      code: 'SANDBOX_BAD_OPTION',
    });
    await expect(Sandbox.open({ tables: [source], threads: 1.5 })).rejects.toMatchObject({
      code: 'SANDBOX_BAD_OPTION',
    });
  });

  it('stops a cross-join explosion at its timeout', async () => {
    await withSandbox({ tables: [source], timeoutMs: 300 }, async (sandbox) => {
      const result = await sandbox.query(
        `SELECT count(*) FROM ${ID} a, ${ID} b, ${ID} c, ${ID} d, ${ID} e, ${ID} f, ${ID} g, ${ID} h`,
      );
      expect(result).toMatchObject({ success: false, kind: 'timeout' });
    });
  });

  it.each([
    [
      'a sort of a huge generated table',
      `SELECT count(*) FROM (SELECT n, r FROM ${ID}, range(50000000) t(r) ORDER BY random())`,
    ],
    [
      'an aggregate building a huge string',
      `SELECT length(string_agg(parity || r::VARCHAR, ',')) FROM ${ID}, range(20000000) t(r)`,
    ],
    ['a huge list', `SELECT len(list(r)) FROM ${ID}, range(50000000) t(r)`],
  ])('stops a memory bomb at the memory limit: %s', async (_label, sql) => {
    await withSandbox(
      { tables: [source], memoryLimitBytes: 64 * 1024 * 1024, timeoutMs: 20_000 },
      async (sandbox) => {
        const result = await sandbox.query(sql);
        expect(result).toMatchObject({
          success: false,
          kind: 'out-of-memory',
          error: expect.stringMatching(/memory limit of 64 MiB \(Out of Memory/i),
        });
      },
    );
  });

  it('refuses a result larger than the row limit', async () => {
    await withSandbox({ tables: [source], maxResultRows: 10 }, async (sandbox) => {
      expect(await sandbox.query(`SELECT * FROM ${ID}`)).toMatchObject({
        success: false,
        kind: 'too-many-rows',
      });
      expect(await sandbox.query(`SELECT * FROM ${ID} LIMIT 10`)).toMatchObject({ success: true });
    });
  });

  it('returns DuckDB errors as data', async () => {
    await withSandbox({ tables: [source] }, async (sandbox) => {
      const result = await sandbox.query(`SELECT missing_column FROM ${ID}`);
      expect(result).toMatchObject({
        success: false,
        kind: 'failed',
        error: expect.stringContaining('missing_column'),
      });
    });
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    await withSandbox({ tables: [source], timeoutMs: 10_000 }, async (sandbox) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('run cancelled')), 100);
      await expect(
        sandbox.query(`SELECT count(*) FROM ${ID}, range(1000000000000)`, { signal: controller.signal }),
      ).rejects.toThrow('run cancelled');
    });
  });

  it('refuses queries once closed', async () => {
    // An untyped column is loaded through a JSON-lines file.
    const sandbox = await Sandbox.open({ tables: [table([['v', '']], [['2024-01-01'], ['x']])] });
    expect(await sandbox.query(`SELECT count(*) AS n FROM ${ID}`)).toMatchObject({ rows: [[2]] });
    await sandbox.close();
    await expect(sandbox.query(`SELECT * FROM ${ID}`)).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    await sandbox.close();
  });
});

describe('queries of different sandboxes', () => {
  const tableA = table([['n', 'INTEGER']], [[1]], 'query_a');
  const tableB = table([['n', 'INTEGER']], [[2]], 'query_b');

  it("cannot read each other's tables, qualified or not", async () => {
    await withSandbox({ tables: [tableA] }, async (a) => {
      await withSandbox({ tables: [tableB] }, async (b) => {
        for (const sql of [
          'SELECT * FROM temp.main.query_b',
          'SELECT * FROM memory.main.query_b',
          'SELECT * FROM query_b',
          'SELECT n FROM query_a UNION ALL SELECT n FROM query_b',
        ]) {
          expect(await a.query(sql), sql).toMatchObject({ success: false, kind: 'unsafe' });
        }
        expect(await b.query('SELECT n FROM query_b')).toMatchObject({ success: true, rows: [[2]] });
      });
    });
  });

  it('see only their own tables, small or large, and a closed sandbox runs nothing', async () => {
    const rows = bigRows();
    const big = await Sandbox.open({ tables: [table([['n', 'INTEGER']], rows, 'query_big')] });
    await withSandbox({ tables: [tableA] }, async (small) => {
      expect(await small.query('SELECT n FROM query_a')).toMatchObject({ success: true });
      expect(await small.query('SELECT count(*) FROM query_big')).toMatchObject({ kind: 'unsafe' });
      expect(await big.query('SELECT n FROM query_a')).toMatchObject({ kind: 'unsafe' });
    });
    expect(await big.query('SELECT count(*) AS c FROM query_big')).toMatchObject({
      success: true,
      rows: [[rows.length]],
    });
    await big.close();
    await expect(big.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('fail alone when one runs out of memory beside another', async () => {
    const options = { memoryLimitBytes: 64 * 1024 * 1024, timeoutMs: 20_000 };
    const sorted = `SELECT count(*) AS c FROM (SELECT r FROM range(2000000) t(r), query_a ORDER BY random())`;
    await withSandbox({ tables: [tableA], ...options }, async (a) => {
      await withSandbox({ tables: [tableB], ...options }, async (b) => {
        const [hog, modest] = await Promise.all([
          b.query('SELECT len(list(r)) FROM query_b, range(50000000) t(r)'),
          a.query(sorted),
        ]);
        expect(hog).toMatchObject({ success: false, kind: 'out-of-memory' });
        expect(modest).toMatchObject({ success: true, rows: [[2000000]] });
      });
    });
  });

  it('reports a query whose worker crashed under it as out of memory', async () => {
    const crash = vi
      .spyOn(ProcessPool.prototype, 'run')
      .mockRejectedValueOnce(new JobLost('crashed', 'the worker process ended (signal SIGKILL)'));
    try {
      await withSandbox({ tables: [tableA] }, async (sandbox) => {
        expect(await sandbox.query('SELECT n FROM query_a')).toMatchObject({
          success: false,
          kind: 'out-of-memory',
          error: expect.stringMatching(/process ended while running it.*SIGKILL.*most likely out of memory/),
        });
        expect(await sandbox.query('SELECT n FROM query_a')).toMatchObject({ success: true, rows: [[1]] });
      });
    } finally {
      crash.mockRestore();
    }
  });

  it('describes tables only the load can tell before any query', async () => {
    const mixed = table([['v', '']], [['2024-01-01'], ['x']], 'query_mixed');
    await withSandbox({ tables: [mixed] }, async (sandbox) => {
      expect(sandbox.tables[0]?.columns).toEqual([{ name: 'v', type: 'VARCHAR' }]);
    });
  });

  it('describes and reads a large sandbox loaded from a file as a small one', async () => {
    const values: CellValue[] = ['2024-01-01', 'x', null, 3, true];
    const columns: [string, string][] = [
      ['mixed', ''],
      ['k', 'INTEGER'],
      ['k', 'VARCHAR'],
    ];
    const rowsOf = (count: number) =>
      Array.from({ length: count }, (_, i): CellValue[] => [values[i % values.length]!, i, `t${i}`]);
    const small = await selectAll(table(columns, rowsOf(10)), `SELECT * FROM ${ID} ORDER BY k LIMIT 10`);
    const large = await selectAll(
      table(columns, rowsOf(INLINE_TABLES_MAX_CELLS)),
      `SELECT * FROM ${ID} ORDER BY k LIMIT 10`,
    );
    expect(large.loaded.columns).toEqual(small.loaded.columns);
    expect(large.loaded.rowCount).toBe(INLINE_TABLES_MAX_CELLS);
    expect(large.result).toEqual(small.result);

    const tables = [table(columns, rowsOf(INLINE_TABLES_MAX_CELLS))];
    await withSandbox({ tables }, async (sandbox) => {
      const whole = await sandbox.query(`SELECT * FROM ${ID}`);
      if (!whole.success) throw new Error(whole.error);
      expect(whole.rows).toHaveLength(INLINE_TABLES_MAX_CELLS);
      expect(whole.rows.slice(0, 10)).toEqual(small.result.success ? small.result.rows : null);
      expect(whole).toEqual(await sandbox.query(`SELECT * FROM ${ID} WHERE true`));
    });
    await withSandbox({ tables, maxResultRows: INLINE_TABLES_MAX_CELLS - 1 }, async (sandbox) => {
      expect(await sandbox.query(`SELECT * FROM ${ID}`)).toMatchObject({
        success: false,
        kind: 'too-many-rows',
      });
    });
  });
});
