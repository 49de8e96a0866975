/** What only the StarRocks warehouse does, on the local MariaDB; what every engine does is in its conformance entry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWhenMissing } from '../../../test-support/local-servers.js';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import type { MysqlFixture } from '../../../test-support/warehouse-conformance/mysql-engine.js';
import { starrocksEngine } from '../../../test-support/warehouse-conformance/starrocks-engine.js';

const skip = skipWhenMissing({
  tests: 'the StarRocks warehouse tests',
  missing: await starrocksEngine.missing(),
});

describe.skipIf(skip)('StarRocks warehouse (on the local MariaDB)', () => {
  let fixture: MysqlFixture;

  beforeAll(async () => {
    fixture = await starrocksEngine.setup();
  });

  afterAll(async () => {
    await fixture?.db.close();
    await fixture?.cleanup();
  });

  it('reports an answer that came after the time limit as QUERY_TIMEOUT, even when the server let it run', async () => {
    // Without MySQL's statement guard a query may lift the server's own limit; and a SLEEP() the
    // server does interrupt can return 1 with no error. Either way the rows came too late.
    const error = await expectFailure(
      fixture.db.query('SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(0.3) AS slept', {
        timeoutMs: 100,
      }),
    );
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(error.message).toContain('100 ms');
  });
});
