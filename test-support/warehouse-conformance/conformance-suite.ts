/**
 * What every warehouse engine must do, run against each engine on its own fixture: engine.ts
 * says what an entry supplies, `<engine>-engine.ts` beside it is each engine's entry, and each
 * engine's home in src/warehouse/ has a `<engine>.conformance.test.ts` that runs it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/warehouse/open-database.js';
import { skipWhenMissing } from '../local-servers.js';
import {
  type ConformanceEngine,
  type EngineFixture,
  EXPECTED_VALUES,
  expectFailure,
  FIXTURE_ROWS,
  MEMORY_LIMIT,
  type RefusalKind,
  spelled,
  type ValueKind,
} from './engine.js';

/** A name that appears in a query's text, to find it in a server's process list. */
function marker(): string {
  return `nao_marker_${randomBytes(4).toString('hex')}`;
}

/** How soon a stopped query must be over; left alone, the slow ones run 30 s or more. */
const STOPPED_WITHIN_MS = 10_000;

/**
 * The conformance tests of one engine, under "<label> warehouse". A server engine whose server
 * does not answer is skipped with a message, or fails with NAO_REQUIRE_SERVERS=1.
 */
export async function describeConformance<Fixture extends EngineFixture>(
  engine: ConformanceEngine<Fixture>,
): Promise<void> {
  const skip = skipWhenMissing({
    tests: `the ${engine.label} warehouse conformance tests`,
    missing: await engine.missing(),
  });
  describe(`${engine.label} warehouse`, () => {
    conformanceTests({ engine, skip });
  });
}

function conformanceTests<Fixture extends EngineFixture>(options: {
  engine: ConformanceEngine<Fixture>;
  skip: boolean;
}): void {
  const { engine, skip } = options;
  const { sql } = engine;
  let fixture: EngineFixture;

  beforeAll(async () => {
    if (!skip) fixture = await engine.setup();
  });

  afterAll(async () => {
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  /** `{dir}` of an engine's SQL or target as the fixture's folder. */
  const inFixture = (text: string) => text.replaceAll('{dir}', fixture.dir ?? '{dir}');

  /**
   * A server no longer runs the statement with `marker`. Polled: a backend that answered the
   * cancel is listed as active until it has read the client's Sync or seen its socket close.
   */
  const expectStopped = async (marker: string) => {
    const running = fixture.running;
    if (running) await expect.poll(() => running(marker), { timeout: 3000 }).toBe(0);
  };

  describe.skipIf(skip)('answers read-only', () => {
    it('opens the fixture under its configured name and answers', async () => {
      expect(fixture.db.name).toBe('conformance');
      expect(fixture.db.dialect).toBe(engine.dialect);
      const result = await fixture.db.query('SELECT count(*) AS n FROM items');
      expect(result.rows).toEqual([[FIXTURE_ROWS]]);
      expect(result.truncated).toBe(false);
    });

    const refusals = (Object.entries(sql.refusals) as [RefusalKind, (typeof sql.refusals)[RefusalKind]][])
      .flatMap(([kind, statements]) =>
        spelled(statements) ? statements.map((statement) => [kind, statement]) : [],
      )
      .concat((sql.moreRefusals ?? []).map((statement) => [`${engine.label} only`, statement]));

    it.each(refusals)(
      'refuses %s: %s, as READ_ONLY_VIOLATION, and nothing changes',
      async (_kind, statement) => {
        const before = await fixture.snapshot();
        const error = await expectFailure(fixture.db.query(inFixture(statement)));
        expect(error.code).toBe('READ_ONLY_VIOLATION');
        expect(error.database).toBe('conformance');
        expect(error.message).toContain(`Database "conformance" (${engine.dialect}) is read-only`);
        expect(await fixture.snapshot()).toEqual(before);
      },
    );

    // An engine that refuses session changes outright lists them among its refusals instead.
    const session = sql.session;
    if (spelled(session)) {
      it('undoes the session settings a query changed, and a loosened session is read-only again', async () => {
        for (const statement of session.change) await fixture.db.query(statement);
        expect((await fixture.db.query(session.check)).rows).toEqual(session.expected);
        expect((await expectFailure(fixture.db.query(session.stillRefused))).code).toBe(
          'READ_ONLY_VIOLATION',
        );
      });
    }

    it('answers queries side by side, each with its own result', async () => {
      const results = await Promise.all([1, 2, 3].map((n) => fixture.db.query(`SELECT ${n} AS n`)));
      expect(results.map((result) => result.rows)).toEqual([[[1]], [[2]], [[3]]]);
    });
  });

  describe.skipIf(skip)('caps rows', () => {
    const ids = (count: number) => Array.from({ length: count }, (_, id) => [id]);

    it.each([
      { cap: '0', maxRows: 0, rows: 0, truncated: true },
      { cap: '10', maxRows: 10, rows: 10, truncated: true },
      { cap: 'N - 1', maxRows: FIXTURE_ROWS - 1, rows: FIXTURE_ROWS - 1, truncated: true },
      { cap: 'exactly N', maxRows: FIXTURE_ROWS, rows: FIXTURE_ROWS, truncated: false },
      { cap: 'N + 1', maxRows: FIXTURE_ROWS + 1, rows: FIXTURE_ROWS, truncated: false },
      { cap: 'none', maxRows: undefined, rows: FIXTURE_ROWS, truncated: false },
    ])(
      'keeps the first rows of N = 5000 in order under a cap of $cap (truncated: $truncated)',
      async ({ maxRows, rows, truncated }) => {
        const result = await fixture.db.query('SELECT id FROM items ORDER BY id', { maxRows });
        expect(result.rows).toEqual(ids(rows));
        expect(result.truncated).toBe(truncated);
      },
    );

    it('is not truncated when no row was left out, even at 0', async () => {
      expect(await fixture.db.query('SELECT id FROM items WHERE id < 0', { maxRows: 0 })).toMatchObject({
        rows: [],
        truncated: false,
      });
      expect(
        await fixture.db.query('SELECT id FROM items WHERE id < 3 ORDER BY id', { maxRows: 3 }),
      ).toMatchObject({ rows: ids(3), truncated: false });
    });

    it('stops a capped query over an endless result early', async () => {
      const result = await fixture.db.query(sql.endless, { maxRows: 3, timeoutMs: STOPPED_WITHIN_MS });
      expect(result.rows).toHaveLength(3);
      expect(result.truncated).toBe(true);
    });
  });

  describe.skipIf(skip)('stops queries', () => {
    it('cancels a query that passes its time limit with QUERY_TIMEOUT, and keeps working', async () => {
      const name = marker();
      const started = performance.now();
      const error = await expectFailure(fixture.db.query(sql.slow(name), { timeoutMs: 300 }));
      expect(error.code).toBe('QUERY_TIMEOUT');
      expect(error.message).toContain(`"conformance" (${engine.dialect})`);
      expect(error.message).toContain('300 ms');
      expect(performance.now() - started).toBeLessThan(STOPPED_WITHIN_MS);
      await expectStopped(name);
      expect((await fixture.db.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
    });

    it('stops a query whose limit passes before it starts to run', async () => {
      const error = await expectFailure(fixture.db.query(sql.slow(marker()), { timeoutMs: 1 }));
      expect(error.code).toBe('QUERY_TIMEOUT');
    });

    const hungry = sql.memoryHungry;
    if (spelled(hungry)) {
      it(`stops a query that needs more than its memory limit (${MEMORY_LIMIT}) with QUERY_OUT_OF_MEMORY, spilling nothing to disk`, async () => {
        const limited = await fixture.open('limited', { memoryLimit: MEMORY_LIMIT });
        try {
          const before = await fixture.snapshot();
          const started = performance.now();
          // The time limit only ends the query should the memory limit not hold.
          const error = await expectFailure(limited.query(hungry, { timeoutMs: STOPPED_WITHIN_MS }));
          expect(error.code).toBe('QUERY_OUT_OF_MEMORY');
          expect(error.message).toContain(`"limited" (${engine.dialect})`);
          expect(error.message).toContain('agent.query_memory_limit');
          expect(performance.now() - started).toBeLessThan(STOPPED_WITHIN_MS);
          expect(await fixture.snapshot()).toEqual(before);
          expect((await limited.query('SELECT 42 AS answer')).rows).toEqual([[42]]);
        } finally {
          await limited.close();
        }
      });
    }

    it('rejects with the reason of an aborted signal, and the query stops', async () => {
      const name = marker();
      const controller = new AbortController();
      const reason = new Error('run cancelled');
      setTimeout(() => controller.abort(reason), 200);
      const started = performance.now();
      await expect(fixture.db.query(sql.slow(name), { signal: controller.signal })).rejects.toBe(reason);
      expect(performance.now() - started).toBeLessThan(STOPPED_WITHIN_MS);
      await expectStopped(name);
      await expect(fixture.db.query('SELECT 1', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      expect((await fixture.db.query('SELECT 2 AS two')).rows).toEqual([[2]]);
    });
  });

  describe.skipIf(skip)('reads values losslessly', () => {
    const cases = (Object.keys(EXPECTED_VALUES) as ValueKind[]).flatMap((kind) => {
      const spelling = sql.values[kind];
      return spelled(spelling) ? [{ kind, ...spelling, expected: EXPECTED_VALUES[kind] }] : [];
    });

    it.each(cases)('$kind: $expression', async ({ expression, type, expected }) => {
      const result = await fixture.db.query(`SELECT ${expression} AS v`);
      expect(result.columns).toEqual([{ name: 'v', type }]);
      expect(result.rows).toEqual([[expected]]);
    });
  });

  describe.skipIf(skip)('describes its tables and its errors', () => {
    it('lists the tables and views with their column types', async () => {
      const tables = await fixture.db.listTables();
      const { id, name, price } = sql.tableTypes;
      expect(tables.filter((table) => ['expensive', 'items'].includes(table.name))).toEqual([
        {
          schema: fixture.schema,
          name: 'expensive',
          columns: [
            { name: 'id', type: id },
            { name: 'price', type: price },
          ],
        },
        {
          schema: fixture.schema,
          name: 'items',
          columns: [
            { name: 'id', type: id },
            { name: 'name', type: name },
            { name: 'price', type: price },
          ],
        },
      ]);
      const system = ['information_schema', 'pg_catalog', 'mysql', 'performance_schema', 'sys'];
      expect(tables.filter((table) => system.includes(table.schema ?? ''))).toEqual([]);
    });

    it('reports a failing query as QUERY_FAILED naming the database, the engine message apart', async () => {
      const error = await expectFailure(fixture.db.query('SELECT missing_column FROM items'));
      expect(error.code).toBe('QUERY_FAILED');
      expect(error).toMatchObject({ database: 'conformance', dialect: engine.dialect });
      expect(error.message).toContain(`The query failed on database "conformance" (${engine.dialect})`);
      expect(error.engineMessage).toContain('missing_column');
      expect((await expectFailure(fixture.db.query('  '))).code).toBe('QUERY_FAILED');
      expect((await expectFailure(fixture.db.query('SELECT 1', { maxRows: -1 }))).code).toBe(
        'INVALID_QUERY_OPTIONS',
      );
    });

    it.each(engine.brokenTargets)(
      'fails to open $label with CONNECTION_FAILED naming where, never a password',
      async ({ config, target, reason }) => {
        const before = await fixture.snapshot();
        const error = await expectFailure(openDatabase(config, { projectDir: fixture.dir }));
        expect(error.code).toBe('CONNECTION_FAILED');
        expect(error.message).toContain(`"broken" (${engine.dialect} at ${inFixture(target)})`);
        expect(error.message).toContain(reason);
        expect(JSON.stringify({ ...error, message: error.message })).not.toContain('hunter2');
        expect(error.cause).toBeUndefined();
        expect(await fixture.snapshot()).toEqual(before);
      },
    );

    it('closes harmlessly twice, stopping what still runs, and refuses work afterwards', async () => {
      const other = await fixture.open('second');
      const name = marker();
      const running = expectFailure(other.query(sql.slow(name)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      await other.close();
      await other.close();
      expect(performance.now() - started).toBeLessThan(STOPPED_WITHIN_MS);
      expect((await running).code).toBe('DATABASE_CLOSED');
      await expectStopped(name);
      expect((await expectFailure(other.query('SELECT 1'))).code).toBe('DATABASE_CLOSED');
      expect((await expectFailure(other.listTables())).code).toBe('DATABASE_CLOSED');
    });
  });
}
