/**
 * The SQL side of the Trino and Athena fakes (Athena's engine is Trino): statements run on an
 * embedded in-memory DuckDB whose default catalog is named `memory`, like Trino's memory
 * connector, and results are described in Trino's type names. DuckDB reads the Trino SQL of
 * the fixtures with one shim: `timestamp(p) with time zone` is spelled without the precision.
 */
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBResult,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';

export interface FakeColumn {
  name: string;
  /** The type as Trino spells it: 'decimal(10,2)', 'timestamp(6) with time zone'. */
  type: string;
  duck: DuckDBType;
}

/** One statement's result, read a chunk at a time so an endless one is never materialised. */
export interface FakeCursor {
  columns: FakeColumn[];
  /** The next rows (DuckDB values), or null when there are no more. */
  next(): Promise<DuckDBValue[][] | null>;
  /** Stops the statement (DuckDB's interrupt); a pending `next()` then rejects. */
  interrupt(): void;
  close(): void;
}

const SCALAR_TYPES: Partial<Record<DuckDBTypeId, string>> = {
  [DuckDBTypeId.BOOLEAN]: 'boolean',
  [DuckDBTypeId.TINYINT]: 'tinyint',
  [DuckDBTypeId.SMALLINT]: 'smallint',
  [DuckDBTypeId.INTEGER]: 'integer',
  [DuckDBTypeId.BIGINT]: 'bigint',
  [DuckDBTypeId.HUGEINT]: 'decimal(38,0)',
  [DuckDBTypeId.FLOAT]: 'real',
  [DuckDBTypeId.DOUBLE]: 'double',
  [DuckDBTypeId.VARCHAR]: 'varchar',
  [DuckDBTypeId.BLOB]: 'varbinary',
  [DuckDBTypeId.DATE]: 'date',
  [DuckDBTypeId.TIME]: 'time(6)',
  [DuckDBTypeId.TIMESTAMP_S]: 'timestamp(0)',
  [DuckDBTypeId.TIMESTAMP_MS]: 'timestamp(3)',
  [DuckDBTypeId.TIMESTAMP]: 'timestamp(6)',
  [DuckDBTypeId.TIMESTAMP_NS]: 'timestamp(9)',
  [DuckDBTypeId.TIMESTAMP_TZ]: 'timestamp(6) with time zone',
  [DuckDBTypeId.UUID]: 'uuid',
  [DuckDBTypeId.INTERVAL]: 'interval day to second',
};

/** Trino's name of a DuckDB type. */
export function trinoTypeOf(type: DuckDBType): string {
  const scalar = SCALAR_TYPES[type.typeId];
  if (scalar !== undefined) return scalar;
  const text = type.toString();
  if (type.typeId === DuckDBTypeId.DECIMAL) return text.toLowerCase();
  if (type.typeId === DuckDBTypeId.LIST || type.typeId === DuckDBTypeId.ARRAY) {
    return `array(${trinoTypeOf((type as unknown as { valueType: DuckDBType }).valueType)})`;
  }
  if (type.typeId === DuckDBTypeId.STRUCT) {
    const struct = type as unknown as { entryNames: string[]; entryTypes: DuckDBType[] };
    return `row(${struct.entryNames.map((name, index) => `${name} ${trinoTypeOf(struct.entryTypes[index]!)}`).join(', ')})`;
  }
  if (type.typeId === DuckDBTypeId.MAP) {
    const map = type as unknown as { keyType: DuckDBType; valueType: DuckDBType };
    return `map(${trinoTypeOf(map.keyType)}, ${trinoTypeOf(map.valueType)})`;
  }
  return text.toLowerCase();
}

/** Trino's spelling of a type DuckDB's catalog names ('DECIMAL(10,2)' → 'decimal(10,2)'). */
export function trinoTypeOfName(name: string): string {
  const known: Record<string, string> = {
    VARCHAR: 'varchar',
    FLOAT: 'real',
    BLOB: 'varbinary',
    TIMESTAMP: 'timestamp(6)',
    'TIMESTAMP WITH TIME ZONE': 'timestamp(6) with time zone',
    HUGEINT: 'decimal(38,0)',
  };
  return known[name] ?? name.toLowerCase();
}

/** DuckDB's spelling of the Trino SQL the fixtures write. */
function duckdbSql(sql: string): string {
  return sql.replace(/timestamp\s*\(\s*\d+\s*\)\s+with\s+time\s+zone/gi, 'timestamp with time zone');
}

export class DuckDbExecutor {
  private constructor(private readonly instance: DuckDBInstance) {}

  static async create(): Promise<DuckDbExecutor> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    return new DuckDbExecutor(instance);
  }

  /** Runs the test's own setup SQL, with every right. */
  async admin(sql: string): Promise<void> {
    const connection = await this.instance.connect();
    try {
      await connection.run(sql);
    } finally {
      connection.closeSync();
    }
  }

  /** DuckDB's complaint about `sql` as a query (a missing column, a syntax error), or undefined. */
  async analyze(sql: string, schema: string | undefined): Promise<string | undefined> {
    const connection = await this.connect(schema);
    try {
      const statements = await connection.extractStatements(duckdbSql(sql));
      if (statements.count !== 1) return 'line 1:1: a request holds exactly one statement';
      await statements.prepare(0);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    } finally {
      connection.closeSync();
    }
  }

  /**
   * Starts `sql` in `schema` of catalog `memory`; rejects with DuckDB's error. `signal`
   * interrupts it, also while DuckDB is still computing its first rows.
   */
  async open(sql: string, schema: string | undefined, signal?: AbortSignal): Promise<FakeCursor> {
    const connection = await this.connect(schema);
    const interrupt = () => connection.interrupt();
    signal?.addEventListener('abort', interrupt, { once: true });
    let result: DuckDBResult;
    try {
      if (signal?.aborted) throw new Error('INTERRUPT Error: Interrupted!');
      result = await connection.stream(duckdbSql(sql));
    } catch (error) {
      signal?.removeEventListener('abort', interrupt);
      connection.closeSync();
      throw error;
    }
    const names = result.columnNames();
    const columns = result
      .columnTypes()
      .map((duck, index) => ({ name: names[index]!, type: trinoTypeOf(duck), duck }));
    return {
      columns,
      next: async () => {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) return null;
        return chunk.getRows();
      },
      interrupt,
      close: () => {
        signal?.removeEventListener('abort', interrupt);
        connection.closeSync();
      },
    };
  }

  close(): void {
    this.instance.closeSync();
  }

  private async connect(schema: string | undefined): Promise<DuckDBConnection> {
    const connection = await this.instance.connect();
    if (schema !== undefined) {
      try {
        await connection.run(`USE memory."${schema.replaceAll('"', '""')}"`);
      } catch (error) {
        connection.closeSync();
        throw error;
      }
    }
    return connection;
  }
}
