import { type InferSchema, type Tool, tool, zodSchema } from 'ai';
import { z } from 'zod';
import { type ContextEntry, walkContextFiles } from './context-files.js';
import { resolveContextPath } from './context-paths.js';
import type { HiddenContext } from './row-security-files.js';
import { type ToolError, toModelOutput, toolError } from './tool-error.js';

export const LIST_TOOL_NAME = 'list';

/** Entries returned at most by one call; the model narrows with a sub-folder. */
export const MAX_LIST_ENTRIES = 500;

export interface ListOutput {
  path: string;
  entries: ContextEntry[];
  truncated?: true;
  note?: string;
}

// Converted to JSON Schema once, not by the SDK on every model call.
const inputSchema = zodSchema(
  z.object({
    path: z
      .string()
      .optional()
      .describe('Folder (or file) relative to the project folder; default: the whole project.'),
  }),
);
type ListInput = InferSchema<typeof inputSchema>;

/** The `list` tool: the context files of the project folder, recursively. */
export function createListTool(options: {
  projectDir: string;
  hidden?: HiddenContext | undefined;
}): Tool<ListInput, ListOutput | ToolError> {
  return tool({
    description:
      'List the context files of the project (docs, models, SQL, YAML, markdown…) under a folder, ' +
      'recursively, with their sizes in bytes. Paths are relative to the project folder. Secrets, ' +
      'nao_config.yaml and the tests/ folder are not available.',
    inputSchema,
    toModelOutput,
    async execute(input): Promise<ListOutput | ToolError> {
      const resolved = await resolveContextPath({
        projectDir: options.projectDir,
        requested: input.path,
        hidden: options.hidden,
      });
      if (!resolved.success) return toolError(resolved.error);
      if (resolved.kind === 'file') {
        return {
          path: resolved.relative,
          entries: [{ path: resolved.relative, kind: 'file', size: resolved.size }],
        };
      }
      const listing = await walkContextFiles({
        hidden: options.hidden,
        projectDir: options.projectDir,
        startDir: resolved.absolute,
        maxEntries: MAX_LIST_ENTRIES,
      });
      const output: ListOutput = { path: resolved.relative, entries: listing.entries };
      if (listing.truncated) {
        output.truncated = true;
        output.note = `Only the first ${MAX_LIST_ENTRIES} entries are listed; list a sub-folder to see the rest.`;
      } else if (listing.entries.length === 0) {
        output.note = 'This folder has no files the agent can read.';
      }
      return output;
    },
  });
}
