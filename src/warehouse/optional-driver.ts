import type { DatabaseDialect } from './database.js';
import { connectionFailed } from './warehouse-error.js';

/**
 * Loads the vendor driver of an optional engine. Drivers are optional dependencies, so a
 * missing one fails the opening as CONNECTION_FAILED naming the package to install.
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
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw connectionFailed({
      database: options.database,
      dialect: options.dialect,
      target: options.target,
      engineMessage: `the driver package ${options.packageName} is not installed (npm install ${options.packageName})`,
    });
  }
}
