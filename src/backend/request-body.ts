import type { Context } from 'hono';
import type { z } from 'zod';

/** A request body as read, or the 400 answer for one that could not be read. */
export type JsonBody<T> = { success: true; data: T } | { success: false; response: Response };

export async function readJson(c: Context): Promise<JsonBody<unknown>> {
  try {
    return { success: true, data: await c.req.json() };
  } catch {
    return { success: false, response: c.json({ error: 'The body is not valid JSON.' }, 400) };
  }
}

/**
 * The JSON body checked against `schema`; a bad one is answered 400 with every problem in one
 * sentence, and with `fields: true` also per field.
 */
export async function parseJsonBody<T>(
  c: Context,
  schema: z.ZodType<T>,
  options: { fields?: boolean } = {},
): Promise<JsonBody<T>> {
  const raw = await readJson(c);
  if (!raw.success) return raw;
  const parsed = schema.safeParse(raw.data);
  if (parsed.success) return { success: true, data: parsed.data };
  const { error, fields } = invalidBody(parsed.error.issues);
  return { success: false, response: c.json(options.fields ? { error, fields } : { error }, 400) };
}

type Issues = readonly { path: readonly PropertyKey[]; message: string }[];

/** A 400 answer's `error` (every problem in one sentence) and `fields` for zod issues. */
export function invalidBody(issues: Issues): { error: string; fields: Record<string, string[]> } {
  const fields = fieldErrors(issues);
  return { error: `Invalid request body: ${Object.values(fields).flat().join('; ')}.`, fields };
}

/** Zod issues as messages per field path (`model.provider`); problems of the whole body under `body`. */
function fieldErrors(issues: Issues): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length === 0 ? 'body' : issue.path.map(String).join('.');
    const messages = fields[key] ?? [];
    messages.push(issue.message);
    fields[key] = messages;
  }
  return fields;
}
