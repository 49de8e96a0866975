import { describe, expect, it } from 'vitest';
import { expectFailure } from '../../../test-support/warehouse-conformance/engine.js';
import { parseConfig } from '../../config/index.js';
import { openDatabase } from '../open-database.js';

describe('MotherDuck warehouse', () => {
  it.each([
    ['    database: analytics\n', 'md:analytics'],
    ['', 'md:'],
  ])(
    'fails to open (%j) naming the database, the missing extension and what to do instead',
    async (entry, path) => {
      const config = parseConfig({
        text: `databases:\n  - name: cloud\n    type: motherduck\n${entry}    token: {{ env('motherduck_token') }}\n`,
        projectDir: '/p',
        env: { motherduck_token: 'hunter2-token' },
      });
      expect(config.warnings).toEqual([]);
      const error = await expectFailure(openDatabase(config.databases[0]!));
      expect(error.code).toBe('CONNECTION_FAILED');
      expect(error.database).toBe('cloud');
      expect(error.message).toContain(`Could not open database "cloud" (motherduck at ${path})`);
      expect(error.message).toContain("DuckDB's MotherDuck extension is not available to this nao");
      expect(error.message).toContain('configure that file as a `type: duckdb` database');
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain('hunter2');
    },
  );
});
