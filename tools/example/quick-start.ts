/**
 * `npm run example`: builds the example warehouse when missing, then runs the built `nao test
 * --replay` in example/ — the whole pipeline (agent tools, reference SQL, extraction,
 * comparison) with model answers read from example/tests/recordings/, so no network and no API
 * key are needed. One example test fails on purpose to show a diff, so "ran and judged"
 * (exit 0 or 1) is success.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureExampleWarehouse } from '../../test-support/example-warehouse/index.js';

const exampleDir = fileURLToPath(new URL('../../example/', import.meta.url));
const naoBin = fileURLToPath(new URL('../../bin/nao.js', import.meta.url));
if (await ensureExampleWarehouse({ path: `${exampleDir}warehouse.duckdb` })) {
  process.stdout.write('Built the example warehouse (example/warehouse.duckdb).\n\n');
}
const child = spawn(process.execPath, [naoBin, 'test', '--replay'], { cwd: exampleDir, stdio: 'inherit' });
const code = await new Promise<number>((resolve) => child.once('exit', (exit) => resolve(exit ?? 1)));
if (code === 0 || code === 1) {
  process.stdout.write(
    '\nThat was the example suite replayed from example/tests/recordings/ (scripted answers, no model was called);\n' +
      'revenue_q4_2025 fails on purpose to show a diff. Next:\n' +
      '  cd example && node ../bin/nao.js test server          # explore the results in the browser\n' +
      '  OPENAI_API_KEY=… node ../bin/nao.js test --local      # run the same suite against a real model\n',
  );
  process.exitCode = 0;
} else {
  process.exitCode = code;
}
