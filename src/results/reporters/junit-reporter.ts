import path from 'node:path';
import { writeFileAtomic } from '../../files/index.js';
import { toJUnitXml } from './junit.js';
import type { Reporter } from './reporter.js';

/** `--junit PATH`: JUnit XML for CI, one testsuite per model. */
export function junitReporter(options: {
  /** As the user gave it; resolved against `cwd`. */
  path: string;
  cwd: string;
}): Reporter {
  return {
    async onSuiteEnd(file) {
      const target = path.resolve(options.cwd, options.path);
      await writeFileAtomic({ path: target, data: toJUnitXml({ file }) });
      return `JUnit report written to ${options.path}`;
    },
  };
}
