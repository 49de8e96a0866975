import { describe, expect, it, vi } from 'vitest';
import { startQuery } from './query-control.js';
import { ServerConnection, type ServerErrorVerdict } from './server-connection.js';
import { WarehouseError } from './warehouse-error.js';

function server(cancelSession = vi.fn(async () => {})) {
  return new ServerConnection({
    name: 'shop',
    dialect: 'postgres',
    fields: { host: 'db.example', user: 'reader', password: 'hunter2', database: 'sales' },
    defaultPort: 5432,
    cancelSession,
    // The engines decide from their codes; here the code says it directly.
    classify: (error, message): ServerErrorVerdict => ({
      kind: (error as { kind: ServerErrorVerdict['kind'] }).kind,
      engineMessage: message,
    }),
  });
}

const limits = (timeoutMs?: number) =>
  startQuery({ database: 'shop', dialect: 'postgres', sql: 'SELECT 1', query: { timeoutMs } });

/** Lets every callback that is not waiting on something run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function engineError(kind: string, message: string, code?: string): Error {
  return Object.assign(new Error(message), { kind, code });
}

describe('ServerConnection', () => {
  it.each([
    ['read-only', 250, 'READ_ONLY_VIOLATION'],
    ['timeout', 250, 'QUERY_TIMEOUT'],
    // A limit set on the server, not by nao: the engine failed the query.
    ['timeout', undefined, 'QUERY_FAILED'],
    ['failed', 250, 'QUERY_FAILED'],
  ])('turns a %s verdict (nao limit %s) into %s, without the password', (kind, timeoutMs, code) => {
    const error = server().queryError(engineError(kind, 'refused for reader:hunter2'), limits(timeoutMs));
    expect(error).toBeInstanceOf(WarehouseError);
    expect(error.code).toBe(code);
    expect(error.message).not.toContain('hunter2');
  });

  it('reports a socket failure mid-query as CONNECTION_FAILED naming the server', () => {
    const error = server().queryError(engineError('failed', 'read ECONNRESET', 'ECONNRESET'), limits());
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('"shop" (postgres at db.example:5432/sales as user reader)');
  });

  it('cancels the sessions in flight once on close, waits for the cancels, and reports DATABASE_CLOSED after', async () => {
    let finishCancel!: () => void;
    const cancelSession = vi.fn(() => new Promise<void>((resolve) => (finishCancel = resolve)));
    const connection = server(cancelSession);
    connection.watch(limits(), 17);
    const end = vi.fn(async () => {});
    const closing = connection.close(end);
    expect(cancelSession).toHaveBeenCalledWith(17);
    await settle();
    expect(end).not.toHaveBeenCalled();
    finishCancel();
    await closing;
    await connection.close(end);
    expect(end).toHaveBeenCalledTimes(1);
    await expect(connection.acquire(async () => 'connection')).rejects.toMatchObject({
      code: 'DATABASE_CLOSED',
    });
    expect(connection.queryError(engineError('failed', 'interrupted'), limits()).code).toBe(
      'DATABASE_CLOSED',
    );
  });

  it('cancels a query on abort, and its watch waits for that cancel before the session is let go', async () => {
    let finishCancel!: () => void;
    const cancelSession = vi.fn(() => new Promise<void>((resolve) => (finishCancel = resolve)));
    const controller = new AbortController();
    const watch = server(cancelSession).watch(
      startQuery({
        database: 'shop',
        dialect: 'postgres',
        sql: 'SELECT 1',
        query: { signal: controller.signal },
      }),
      42,
    );
    const reason = new Error('stop');
    controller.abort(reason);
    expect(watch.cancelled).toBe(true);
    expect(watch.failure(new Error('canceling statement due to user request'))).toBe(reason);
    let finished = false;
    const finishing = watch.finish().then(() => {
      finished = true;
    });
    await settle();
    expect(finished).toBe(false);
    finishCancel();
    await finishing;
    expect(cancelSession).toHaveBeenCalledWith(42);
  });
});
