import { z } from 'zod';

/**
 * The body of a run started from an app (`{tests, models}`), as the viewer server and the
 * backend both validate it: names only, a bounded number of them.
 */
export const runRequestSchema = z.object(
  {
    tests: z
      .array(z.string().min(1).max(200), { error: 'tests must be a list of test names' })
      .min(1)
      .max(1000),
    models: z
      .array(z.string().min(1).max(200), { error: 'models must be a list of provider:model_id' })
      .min(1, 'pick at least one model')
      .max(20),
  },
  { error: 'the body must be a JSON object {tests, models}' },
);
