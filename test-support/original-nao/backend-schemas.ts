import { z } from 'zod';

/**
 * The request body schemas of the original nao's backend (getnao/nao, apps/backend), written
 * here from reading its routes, for the contract tests. Like its zod objects, these drop keys
 * they do not know; `.optional()` accepts an absent key but never `null`.
 */

/** `llmProviderSchema` (`z.enum(LLM_PROVIDERS)`, apps/backend/src/types/llm.ts). */
const provider = z.enum([
  'openai',
  'openaiCompatible',
  'anthropic',
  'google',
  'mistral',
  'openrouter',
  'ollama',
  'bedrock',
  'vertex',
  'azure',
]);

/** `customModelCostSchema`: dollars per million tokens, each optional, never negative. */
const modelCosts = z.object({
  inputNoCache: z.number().min(0).optional(),
  inputCacheRead: z.number().min(0).optional(),
  inputCacheWrite: z.number().min(0).optional(),
  output: z.number().min(0).optional(),
});

/**
 * `POST /api/test/run` (apps/backend/src/routes/test.ts): `sql` is required and a string.
 * `databaseId` is the optional string of the version issue #34 reports, which rejects `null`.
 */
export const testRunBody = z.object({
  prompt: z.string(),
  model: z.object({ provider, modelId: z.string() }),
  sql: z.string(),
  databaseId: z.string().optional(),
  meta: z.object({ costs: modelCosts }).optional(),
});

/** better-auth's `POST /api/auth/sign-in/email`. */
export const signInEmailBody = z.object({
  email: z.string(),
  password: z.string(),
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
});

/** `POST /api/cli-auth/token` (apps/backend/src/routes/cli-auth.ts): the browser log-in's code. */
export const cliAuthTokenBody = z.object({ code: z.string().min(1) });

/** The schema of each body route the CLI calls, by path. */
export const ORIGINAL_BODY_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  '/api/test/run': testRunBody,
  '/api/auth/sign-in/email': signInEmailBody,
  '/api/cli-auth/token': cliAuthTokenBody,
};
