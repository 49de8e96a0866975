import { describe, expect, it } from 'vitest';
import { STATEMENT_TYPE_IDS, splitStatements, statementTypeOf } from './statement-type.js';

describe('the fake account’s statement types', () => {
  it.each([
    ['SELECT 1', STATEMENT_TYPE_IDS.select],
    ['  -- note\n WITH x AS (SELECT 1) SELECT * FROM x', STATEMENT_TYPE_IDS.select],
    ['/* c */ insert into t values (1)', STATEMENT_TYPE_IDS.insert],
    ['INSERT ALL INTO a INTO b SELECT 1', STATEMENT_TYPE_IDS.multiInsert],
    ['ALTER SESSION SET TIMEZONE = UTC', STATEMENT_TYPE_IDS.alterSession],
    ['ALTER TABLE t ADD COLUMN c INT', STATEMENT_TYPE_IDS.ddl],
    ['SHOW TABLES', STATEMENT_TYPE_IDS.show],
    ['DESC TABLE t', STATEMENT_TYPE_IDS.describe],
    ['COMMIT', STATEMENT_TYPE_IDS.tcl],
    ['EXPLAIN SELECT 1', STATEMENT_TYPE_IDS.unknown],
  ])('%s → %i', (sql, expected) => {
    expect(statementTypeOf(sql)).toBe(expected);
  });

  it('splits statements on semicolons outside quotes and comments', () => {
    expect(splitStatements("SELECT ';' AS a; -- x;\nDROP TABLE t;")).toEqual([
      "SELECT ';' AS a",
      ' -- x;\nDROP TABLE t',
    ]);
    expect(splitStatements('SELECT 1;')).toEqual(['SELECT 1']);
  });
});
