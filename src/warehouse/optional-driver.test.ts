import { describe, expect, it } from 'vitest';
import { loadOptionalDriver } from './optional-driver.js';
import { WarehouseError } from './warehouse-error.js';

const context = {
  database: 'lake',
  dialect: 'trino',
  target: 'localhost:8080/hive',
  packageName: 'trino-client',
} as const;

async function failure(importer: () => Promise<unknown>): Promise<WarehouseError> {
  const error = await loadOptionalDriver({ ...context, importer }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(WarehouseError);
  return error as WarehouseError;
}

describe('loadOptionalDriver', () => {
  it('returns the module the importer loads', async () => {
    const driver = { Trino: 'the driver' };
    expect(await loadOptionalDriver({ ...context, importer: async () => driver })).toBe(driver);
  });

  it('turns a missing package into CONNECTION_FAILED naming it, that it is optional, and the install command', async () => {
    const missing = Object.assign(new Error("Cannot find module 'trino-client'"), {
      code: 'MODULE_NOT_FOUND',
    });
    const error = await failure(() => Promise.reject(missing));
    expect(error).toMatchObject({ code: 'CONNECTION_FAILED', database: 'lake', dialect: 'trino' });
    expect(error.message).toBe(
      'Could not open database "lake" (trino at localhost:8080/hive): the driver package trino-client is not ' +
        'installed. trino-client is an optional dependency of nao, installed only for the engines you use: ' +
        'run `npm install trino-client` where nao is installed.',
    );
  });

  it('reports a driver that is present but fails to load with the loader’s words', async () => {
    const error = await failure(() =>
      Promise.reject(new SyntaxError('Unexpected token in trino-client/dist/index.js')),
    );
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('could not be loaded (Unexpected token in trino-client/dist/index.js)');
    expect(error.message).toContain('Reinstall it with `npm install trino-client`');
    expect(error.message).not.toContain('optional dependency');
  });
});
