/**
 * `node dist/example/prepare.js`: builds the bundled example's warehouse when it is missing
 * (the quick start runs it; the data is generated, not committed).
 */
import { fileURLToPath } from 'node:url';
import { ensureExampleWarehouse } from './build-warehouse.js';

const target = fileURLToPath(new URL('../../example/warehouse.duckdb', import.meta.url));
const built = await ensureExampleWarehouse({ path: target });
process.stdout.write(
  built ? `Built the example warehouse: ${target}\n` : `Example warehouse ready: ${target}\n`,
);
