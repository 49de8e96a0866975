import { type FlexibleSchema, zodSchema } from 'ai';
import type { z } from 'zod';

/**
 * A tool's input schema, to build once per process (at module level). Given a raw zod schema,
 * the AI SDK converts it to JSON Schema on every model call; wrapped once, the schema object
 * keeps its JSON form, which mattered in suites of thousands of calls.
 */
export function toolInputSchema<T>(schema: z.ZodType<T>): FlexibleSchema<T> {
  return zodSchema(schema);
}
