import type { DatabaseDialect } from './database.js';
import { messageOf, WarehouseError } from './warehouse-error.js';

/**
 * Loads the vendor driver of an optional engine, only when such a database is opened. Drivers
 * are optional dependencies of nao, so a missing one fails the opening as CONNECTION_FAILED
 * naming the package and the command that installs it; a driver that is present but fails to
 * load is CONNECTION_FAILED too, with the loader's words.
 *
 * `target` says where nao would have connected and must already be free of secrets.
 */
export async function loadOptionalDriver<Module>(options: {
  database: string;
  dialect: DatabaseDialect;
  target: string;
  packageName: string;
  importer: () => Promise<Module>;
}): Promise<Module> {
  try {
    return await options.importer();
  } catch (error) {
    const { database, dialect, target, packageName } = options;
    const code = (error as { code?: unknown } | null)?.code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    const engineMessage = missing
      ? `the driver package ${packageName} is not installed`
      : `the driver package ${packageName} could not be loaded (${messageOf(error)})`;
    const remedy = missing
      ? `${packageName} is an optional dependency of nao, installed only for the engines you use: ` +
        `run \`npm install ${packageName}\` where nao is installed.`
      : `Reinstall it with \`npm install ${packageName}\` where nao is installed.`;
    throw new WarehouseError({
      code: 'CONNECTION_FAILED',
      database,
      dialect,
      engineMessage,
      cause: error,
      message: `Could not open database "${database}" (${dialect} at ${target}): ${engineMessage}. ${remedy}`,
    });
  }
}
