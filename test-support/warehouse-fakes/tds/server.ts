/**
 * A wire-level fake of SQL Server (MS-TDS 7.4) on 127.0.0.1 and a random port, for tests of a
 * real TDS client (tedious). It answers PRELOGIN without encryption (ENCRYPT_NOT_SUP), checks
 * LOGIN7's user, password and database, runs SQL batches on an embedded DuckDB (one connection
 * per session, so BEGIN TRAN … ROLLBACK undoes what ran inside), streams SELECT results as
 * COLMETADATA and ROW tokens, answers ATTENTION by stopping the batch with DONE_ATTN, and
 * reports errors as SQL Server does (number, state, class). Logins are `reader` (only
 * db_datareader: writes and DDL are refused as SQL Server refuses them) or `owner`.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { MessageWriter, PACKET, readMessages, type TdsMessage } from './packets.js';
import {
  colMetadata,
  columnCodec,
  DONE_STATUS,
  done,
  envChangeCollation,
  envChangeDatabase,
  envChangePacketSize,
  errorToken,
  loginAck,
  row,
} from './tokens.js';
import { deniedToReader, type SqlServerError, splitBatch, toDuckDb } from './tsql.js';

export interface FakeLogin {
  password: string;
  role: 'reader' | 'owner';
}

export interface FakeTdsServerOptions {
  /** The one database the server holds; its tables live in DuckDB schema `dbo`. */
  database: string;
  logins: Record<string, FakeLogin>;
  /** ALLOW_SNAPSHOT_ISOLATION of the database (default on); off, a SNAPSHOT transaction cannot read tables. */
  allowSnapshotIsolation?: boolean;
}

export interface FakeTdsServer {
  port: number;
  /** The DuckDB behind the fake, for the test's own setup and checks (schema `dbo`). */
  admin: DuckDBConnection;
  /** LOGIN7 messages received so far, accepted or not. */
  logins(): number;
  /** Batches running now whose text contains `marker`. */
  running(marker: string): number;
  close(): Promise<void>;
}

class Cancelled extends Error {}

interface Session {
  socket: Socket;
  writer: MessageWriter;
  login?: { user: string; role: FakeLogin['role'] };
  duck?: DuckDBConnection;
  trancount: number;
  isolation: string;
  /** Set by ATTENTION; the running batch stops at its next step. */
  attention: boolean;
  /** A batch was received and its response is not complete yet. */
  busy: boolean;
  wake?: () => void;
  queue: Promise<void>;
}

export async function startFakeTdsServer(options: FakeTdsServerOptions): Promise<FakeTdsServer> {
  const instance = await DuckDBInstance.create(':memory:');
  const admin = await instance.connect();
  await admin.run('CREATE SCHEMA dbo; SET search_path = dbo');
  const running: string[] = [];
  let logins = 0;
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const session: Session = {
      socket,
      writer: new MessageWriter(socket),
      trancount: 0,
      isolation: 'READ COMMITTED',
      attention: false,
      busy: false,
      queue: Promise.resolve(),
    };
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      session.attention = true;
      session.wake?.();
      session.duck?.closeSync();
    });
    readMessages(socket, (message) => {
      if (message.type === PACKET.ATTENTION) {
        // A batch in flight ends its response and then acknowledges; an idle session (the
        // batch ended before the attention arrived) acknowledges at once, as its own message.
        if (session.busy) {
          session.attention = true;
          session.wake?.();
          session.duck?.interrupt();
        } else {
          session.queue = session.queue
            .then(() => session.writer.send(done(DONE_STATUS.ATTENTION), true))
            .catch(() => {
              socket.destroy();
            });
        }
        return;
      }
      if (message.type === PACKET.SQL_BATCH) session.busy = true;
      session.queue = session.queue
        .then(() => handle(session, message))
        .catch(() => {
          socket.destroy();
        });
    });
  });

  const handle = async (session: Session, message: TdsMessage): Promise<void> => {
    switch (message.type) {
      case PACKET.PRELOGIN:
        return session.writer.send(prelogin(), true);
      case PACKET.LOGIN7:
        logins++;
        return login(session, message.body);
      case PACKET.SQL_BATCH: {
        if (message.reset) await resetSession(session);
        return batch(session, sqlOfBatch(message.body));
      }
      default: {
        const error = {
          number: 0,
          severity: 16,
          message: `the fake does not serve TDS packets of type ${message.type}`,
        };
        return session.writer.send(Buffer.concat([errorToken(error), done(DONE_STATUS.ERROR)]), true);
      }
    }
  };

  const login = async (session: Session, body: Buffer): Promise<void> => {
    const { user, password, database } = parseLogin7(body);
    const account = options.logins[user];
    const fail = (errors: SqlServerError[]) =>
      session.writer.send(Buffer.concat([...errors.map(errorToken), done(DONE_STATUS.ERROR)]), true);
    const loginFailed = { number: 18456, severity: 14, message: `Login failed for user '${user}'.` };
    if (account === undefined || account.password !== password) return fail([loginFailed]);
    if (database !== '' && database !== options.database) {
      return fail([
        {
          number: 4060,
          severity: 11,
          message: `Cannot open database "${database}" requested by the login. The login failed.`,
        },
        loginFailed,
      ]);
    }
    session.login = { user, role: account.role };
    session.duck = await instance.connect();
    await session.duck.run('SET search_path = dbo');
    await session.writer.send(
      Buffer.concat([
        envChangeDatabase(options.database),
        envChangeCollation(),
        loginAck(),
        envChangePacketSize(4096),
        done(DONE_STATUS.FINAL),
      ]),
      true,
    );
  };

  /** sp_reset_connection: an open transaction is rolled back, session settings are the login's again. */
  const resetSession = async (session: Session) => {
    if (session.trancount > 0) await session.duck?.run('ROLLBACK').catch(() => {});
    session.trancount = 0;
    session.isolation = 'READ COMMITTED';
  };

  const batch = async (session: Session, sql: string): Promise<void> => {
    const statements = splitBatch(sql);
    const { writer } = session;
    try {
      running.push(sql);
      for (const [index, statement] of statements.entries()) {
        const more = index < statements.length - 1 ? DONE_STATUS.MORE : DONE_STATUS.FINAL;
        const failure = await runStatement(session, statement, more);
        if (failure !== undefined) {
          await writer.send(Buffer.concat([errorToken(failure), done(DONE_STATUS.ERROR)]), true);
          return;
        }
      }
      if (statements.length === 0) await writer.send(done(DONE_STATUS.FINAL), true);
    } catch (error) {
      if (!(error instanceof Cancelled) && !session.attention) throw error;
      // The response ends as it stands; the acknowledgement follows as a message of its own.
      await writer.send(done(DONE_STATUS.FINAL), true);
      await writer.send(done(DONE_STATUS.ATTENTION), true);
    } finally {
      running.splice(running.indexOf(sql), 1);
      session.busy = false;
      session.attention = false;
    }
  };

  /** Runs one statement, sending its tokens; a failure SQL Server would report is returned. */
  const runStatement = async (
    session: Session,
    statement: string,
    more: number,
  ): Promise<SqlServerError | undefined> => {
    const { writer } = session;
    const duck = session.duck!;
    const check = () => {
      if (session.attention) throw new Cancelled();
    };
    check();
    const upper = statement.toUpperCase().replace(/\s+/g, ' ');
    if (/^BEGIN TRAN(SACTION)?\b/.test(upper)) {
      if (session.trancount === 0) await duck.run('BEGIN TRANSACTION');
      session.trancount++;
      return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
    }
    if (/^(IF @@TRANCOUNT > 0 )?ROLLBACK( TRAN(SACTION)?)?$/.test(upper)) {
      if (session.trancount === 0) {
        if (upper.startsWith('IF')) return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
        return {
          number: 3903,
          severity: 16,
          message: 'The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.',
        };
      }
      await duck.run('ROLLBACK');
      session.trancount = 0;
      return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
    }
    if (/^COMMIT( TRAN(SACTION)?)?$/.test(upper)) {
      if (session.trancount === 0) {
        return {
          number: 3902,
          severity: 16,
          message: 'The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.',
        };
      }
      session.trancount--;
      if (session.trancount === 0) await duck.run('COMMIT');
      return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
    }
    const isolation = /^SET TRANSACTION ISOLATION LEVEL (.+)$/.exec(upper);
    if (isolation) session.isolation = isolation[1]!.trim();
    if (upper.startsWith('SET ')) return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
    const wait = /^WAITFOR DELAY '(\d+):(\d+):(\d+(?:\.\d+)?)'$/.exec(upper);
    if (wait !== null) {
      const ms = ((Number(wait[1]) * 60 + Number(wait[2])) * 60 + Number(wait[3])) * 1000;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        session.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      session.wake = undefined;
      check();
      return void (await writer.send(done(more), more === DONE_STATUS.FINAL));
    }
    if (session.login?.role === 'reader') {
      const denied = deniedToReader(statement, options.database);
      if (denied !== undefined) return denied;
    }
    if (
      session.isolation === 'SNAPSHOT' &&
      options.allowSnapshotIsolation === false &&
      /\bFROM\b/.test(upper)
    ) {
      return {
        number: 3952,
        severity: 16,
        message: `Snapshot isolation transaction failed accessing database '${options.database}' because snapshot isolation is not allowed in this database. Use ALTER DATABASE to allow snapshot isolation.`,
      };
    }
    const text = toDuckDb(statement, session);
    if (!/^(SELECT|WITH|VALUES|FROM|\()/.test(upper)) {
      try {
        const changed = (await duck.run(text)).rowsChanged;
        return void (await writer.send(done(more | DONE_STATUS.COUNT, changed), more === DONE_STATUS.FINAL));
      } catch (error) {
        check();
        return sqlServerError(error);
      }
    }
    let result: Awaited<ReturnType<DuckDBConnection['stream']>>;
    try {
      result = await duck.stream(text);
    } catch (error) {
      check();
      return sqlServerError(error);
    }
    const names = result.columnNames();
    const codecs = result.columnTypes().map(columnCodec);
    await writer.send(colMetadata(names, codecs), false);
    let count = 0;
    for (;;) {
      check();
      let chunk: Awaited<ReturnType<typeof result.fetchChunk>>;
      try {
        chunk = await result.fetchChunk();
      } catch (error) {
        check();
        return sqlServerError(error);
      }
      if (chunk === null || chunk.rowCount === 0) break;
      const rows = chunk.getRows();
      count += rows.length;
      await writer.send(Buffer.concat(rows.map((values) => row(values, codecs))), false);
    }
    check();
    return void (await writer.send(done(more | DONE_STATUS.COUNT, count), more === DONE_STATUS.FINAL));
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A fake nobody connected to does not keep the test process alive.
  server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fake TDS server has no port');
  return {
    port: address.port,
    admin,
    logins: () => logins,
    running: (marker) => running.filter((batch) => batch.includes(marker)).length,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      admin.closeSync();
      instance.closeSync();
    },
  };
}

/** PRELOGIN answer: version 16.0, ENCRYPT_NOT_SUP, no instance, no MARS. */
function prelogin(): Buffer {
  const options = [
    { token: 0x00, data: Buffer.from([16, 0, 0x10, 0x00, 0, 0]) },
    { token: 0x01, data: Buffer.from([0x02]) },
    { token: 0x02, data: Buffer.from([0x00]) },
    { token: 0x03, data: Buffer.alloc(0) },
    { token: 0x04, data: Buffer.from([0x00]) },
  ];
  const headerLength = options.length * 5 + 1;
  const header = Buffer.alloc(headerLength);
  let offset = headerLength;
  options.forEach((option, index) => {
    header[index * 5] = option.token;
    header.writeUInt16BE(offset, index * 5 + 1);
    header.writeUInt16BE(option.data.length, index * 5 + 3);
    offset += option.data.length;
  });
  header[headerLength - 1] = 0xff;
  return Buffer.concat([header, ...options.map((option) => option.data)]);
}

/** User, password (de-obfuscated: XOR 0xA5, then the nibbles swapped back) and database of a LOGIN7 body. */
function parseLogin7(body: Buffer): { user: string; password: string; database: string } {
  const field = (at: number) => {
    const offset = body.readUInt16LE(at);
    const length = body.readUInt16LE(at + 2);
    return body.subarray(offset, offset + length * 2);
  };
  const password = Buffer.from(field(44)).map((byte) => {
    const value = byte ^ 0xa5;
    return ((value & 0x0f) << 4) | (value >> 4);
  });
  return {
    user: field(40).toString('utf16le'),
    password: Buffer.from(password).toString('utf16le'),
    database: field(68).toString('utf16le'),
  };
}

/** The text of a SQL_BATCH after its ALL_HEADERS (a total length, then the headers). */
function sqlOfBatch(body: Buffer): string {
  const headers = body.readUInt32LE(0);
  return body.subarray(headers).toString('utf16le');
}

/** DuckDB's error as SQL Server would number it: 207 for a column, 208 for a table, 102 for syntax. */
function sqlServerError(error: unknown): SqlServerError {
  const message = error instanceof Error ? error.message : String(error);
  const column = /Referenced column "([^"]+)" not found/.exec(message);
  if (column) return { number: 207, severity: 16, message: `Invalid column name '${column[1]}'.` };
  const table = /Table with name (\S+) does not exist/.exec(message);
  if (table) return { number: 208, severity: 16, message: `Invalid object name '${table[1]}'.` };
  if (/Parser Error/.test(message))
    return { number: 102, severity: 15, message: `Incorrect syntax: ${message}` };
  if (/INTERRUPT/i.test(message)) return { number: 0, severity: 16, message: 'cancelled' };
  return { number: 50000, severity: 16, message };
}
