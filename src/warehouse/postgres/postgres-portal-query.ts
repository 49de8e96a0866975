/**
 * One statement through PostgreSQL's extended protocol with a row-limited portal: the server
 * produces at most `maxRows + 1` rows and then suspends, so a capped query never computes or
 * sends the rest. It is a pg "submittable" (the interface pg-cursor implements) handed to
 * `client.query()`.
 *
 * The extended protocol also accepts exactly one statement, so a query cannot chain
 * `COMMIT; …` or `SET TRANSACTION READ WRITE; …` to step out of nao's read-only transaction.
 */

/** A column as described by the server. */
export interface PortalField {
  name: string;
  dataTypeID: number;
  dataTypeModifier: number;
}

export interface PortalResult {
  fields: PortalField[];
  /** Raw text of each field (null for NULL), at most `maxRows` rows. */
  rows: (string | null)[][];
  truncated: boolean;
}

/** The slice of pg's Connection a submittable drives. */
interface ProtocolConnection {
  parse(query: { text: string; name: string; types: number[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[]; binary: boolean }): void;
  describe(message: { type: 'P' | 'S'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  flush(): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

export class PortalQuery {
  readonly result: Promise<PortalResult>;
  private resolve!: (result: PortalResult) => void;
  private reject!: (error: Error) => void;
  private fields: PortalField[] = [];
  private readonly rows: (string | null)[][] = [];
  private truncated = false;
  private synced = false;
  private readonly maxRows: number;

  constructor(
    readonly text: string,
    maxRows: number,
  ) {
    this.maxRows = maxRows;
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Nobody may be listening yet when a connection error arrives; the caller awaits `result`.
    this.result.catch(() => {});
  }

  submit(connection: ProtocolConnection): null {
    connection.parse({ text: this.text, name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [], binary: false });
    connection.describe({ type: 'P', name: '' });
    // 0 asks for every row; otherwise one row past the cap tells whether more existed.
    const fetch = this.maxRows === Number.POSITIVE_INFINITY ? 0 : this.maxRows + 1;
    connection.execute({ portal: '', rows: fetch });
    connection.flush();
    return null;
  }

  handleRowDescription(message: { fields: PortalField[] }): void {
    this.fields = message.fields.map((field) => ({
      name: field.name,
      dataTypeID: field.dataTypeID,
      dataTypeModifier: field.dataTypeModifier,
    }));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.rows.length < this.maxRows) this.rows.push(message.fields);
    else this.truncated = true;
  }

  handlePortalSuspended(connection: ProtocolConnection): void {
    this.sync(connection);
  }

  handleCommandComplete(_message: unknown, connection: ProtocolConnection): void {
    this.sync(connection);
  }

  handleEmptyQuery(connection: ProtocolConnection): void {
    this.sync(connection);
  }

  handleError(error: Error, connection: ProtocolConnection): void {
    // After an ErrorResponse the server discards messages until Sync; a broken socket has no server to sync with.
    if ('severity' in error) this.sync(connection);
    this.reject(error);
  }

  handleReadyForQuery(): void {
    this.resolve({ fields: this.fields, rows: this.rows, truncated: this.truncated });
  }

  handleCopyInResponse(connection: ProtocolConnection): void {
    connection.sendCopyFail('nao runs read-only queries; COPY FROM STDIN is not supported');
  }

  handleCopyData(): void {}

  private sync(connection: ProtocolConnection): void {
    if (this.synced) return;
    this.synced = true;
    connection.sync();
  }
}
