import type { JSONValue, Tool } from 'ai';

/** An expected tool failure the model can read and act on (bad SQL, refused path…). */
export interface ToolError {
  error: string;
}

type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

export function toolError(message: string): ToolError {
  return { error: message };
}

export function isToolError(value: unknown): value is ToolError {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as { error?: unknown }).error === 'string'
  );
}

/**
 * Sends `{ error }` results to the model as an error output, which providers flag as a
 * failed call (Anthropic `is_error`), and every other result as JSON.
 */
export function toModelOutput({ output }: { output: unknown }): ToolResultOutput {
  if (isToolError(output)) return { type: 'error-text', value: output.error };
  // Tool results are built from JSON-safe values (CellValue, strings, numbers).
  return { type: 'json', value: (output ?? null) as JSONValue };
}
