import { NaoError } from '../errors/index.js';
import type { ReferenceCheck } from './reference-check.js';
import type { TestRunClient } from './test-run-client.js';

/**
 * The client with the runs of tests whose reference SQL failed its check ended at once, as
 * errors carrying the engine's message: no agent starts, so nothing is spent on them.
 */
export function withoutFailedReferences(
  client: TestRunClient,
  checks: ReadonlyMap<string, ReferenceCheck>,
): TestRunClient {
  return {
    ...client,
    runTest: async (options) => {
      const check = checks.get(options.run.file);
      if (check?.status === 'invalid')
        throw new NaoError({ code: 'REFERENCE_SQL_FAILED', message: check.error });
      return client.runTest(options);
    },
    close: () => client.close(),
  };
}
