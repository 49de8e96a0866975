import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/**
 * Fresh connections to one DuckDB instance, with the next one always opened ahead:
 * connecting is a thread-pool round trip, and in a busy suite each round trip waits for the
 * event loop on a run's critical path. Nothing runs on a connection before it is handed out,
 * so every caller still starts a session of its own.
 */
export class FreshConnections {
  private spare: Promise<DuckDBConnection> | null = null;

  constructor(private readonly instance: DuckDBInstance) {}

  /** A connection nobody has used; the next one starts connecting at once. */
  take(): Promise<DuckDBConnection> {
    const next = this.spare ?? this.instance.connect();
    const spare = this.instance.connect();
    this.spare = spare;
    // A failed spare is dropped; the next caller connects itself and gets its own failure.
    spare.catch(() => {
      if (this.spare === spare) this.spare = null;
    });
    return next;
  }

  /**
   * Closes the connection opened ahead, once it has finished connecting. Call it before
   * closing the instance: the bindings promise nothing about a connect pending meanwhile.
   */
  async dispose(): Promise<void> {
    const spare = this.spare;
    this.spare = null;
    await spare?.then(
      (connection) => connection.closeSync(),
      () => undefined,
    );
  }
}
