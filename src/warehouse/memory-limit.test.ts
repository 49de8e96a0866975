import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { duckDbMemoryLimit } from './memory-limit.js';

const GIB = 1024 ** 3;

describe('duckDbMemoryLimit', () => {
  it.each([
    ['25%', 16 * GIB, `${4 * GIB}B`],
    ['12.5%', 8 * GIB, `${GIB}B`],
    ['100%', GIB, `${GIB}B`],
    ['4GB', 16 * GIB, '4GB'],
    [' 512 mib ', 16 * GIB, '512mib'],
  ])('%j of %d bytes is %j', (spelling, total, expected) => {
    expect(duckDbMemoryLimit(spelling, total)).toBe(expected);
  });

  it.each(['25%', '4GB', '512 mib', '1.5gb', '100KB'])(
    'gives %j in a spelling DuckDB accepts',
    async (spelling) => {
      const instance = await DuckDBInstance.create(':memory:', { memory_limit: duckDbMemoryLimit(spelling) });
      instance.closeSync();
    },
  );
});
