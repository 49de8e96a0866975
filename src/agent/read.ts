import { type InferSchema, type Tool, tool, zodSchema } from 'ai';
import { z } from 'zod';
import { resolveContextPath } from './context-paths.js';
import { readContextText, splitLines } from './context-text.js';
import type { HiddenContext } from './row-security-files.js';
import { type ToolError, toModelOutput, toolError } from './tool-error.js';

export const READ_TOOL_NAME = 'read';

export const READ_LIMITS = {
  /** Files larger than this are refused; grep finds the part that matters. */
  maxFileBytes: 10 * 1024 * 1024,
  maxLines: 1000,
  maxChars: 60_000,
} as const;

export interface ReadOutput {
  path: string;
  /** 1-based, inclusive; 0 and 0 for an empty file. */
  start_line: number;
  end_line: number;
  total_lines: number;
  content: string;
  note?: string;
}

// Converted to JSON Schema once, not by the SDK on every model call.
const inputSchema = zodSchema(
  z.object({
    path: z.string().describe('File path relative to the project folder, e.g. "RULES.md".'),
    start_line: z.number().int().min(1).optional().describe('First line to read (1-based); default 1.'),
    end_line: z.number().int().min(1).optional().describe('Last line to read (inclusive).'),
  }),
);
type ReadInput = InferSchema<typeof inputSchema>;

/** The `read` tool: a text context file of the project folder, whole or by line range. */
export function createReadTool(options: {
  projectDir: string;
  hidden?: HiddenContext | undefined;
}): Tool<ReadInput, ReadOutput | ToolError> {
  return tool({
    description:
      'Read a text file of the project (relative path), whole or a range of lines. Long files come ' +
      `back in parts of at most ${READ_LIMITS.maxLines} lines; the note says how to read the next part. ` +
      'Secrets, nao_config.yaml and the tests/ folder are not available.',
    inputSchema,
    toModelOutput,
    async execute(input): Promise<ReadOutput | ToolError> {
      const resolved = await resolveContextPath({
        projectDir: options.projectDir,
        requested: input.path,
        hidden: options.hidden,
      });
      if (!resolved.success) return toolError(resolved.error);
      if (resolved.kind === 'directory') {
        return toolError(`"${resolved.relative}" is a folder; use list to see its files`);
      }
      const file = await readContextText({
        absolute: resolved.absolute,
        displayPath: resolved.relative,
        size: resolved.size,
        maxBytes: READ_LIMITS.maxFileBytes,
      });
      if (!file.success) return toolError(file.error);
      return sliceLines({ path: resolved.relative, lines: splitLines(file.text), input });
    },
  });
}

function sliceLines(options: { path: string; lines: string[]; input: ReadInput }): ReadOutput | ToolError {
  const { path, lines, input } = options;
  const total = lines.length;
  if (total === 0)
    return { path, start_line: 0, end_line: 0, total_lines: 0, content: '', note: 'The file is empty.' };
  const start = input.start_line ?? 1;
  if (start > total)
    return toolError(`start_line ${start} is past the end of "${path}", which has ${total} lines`);
  if (input.end_line !== undefined && input.end_line < start) {
    return toolError(`end_line ${input.end_line} is before start_line ${start}`);
  }
  const wantedEnd = Math.min(input.end_line ?? total, total);
  const parts: string[] = [];
  let chars = 0;
  let end = start - 1;
  let cutLine = false;
  while (end < wantedEnd && parts.length < READ_LIMITS.maxLines) {
    const line = lines[end] ?? '';
    if (chars + line.length + 1 > READ_LIMITS.maxChars) {
      if (parts.length === 0) {
        // A single huge line (minified JSON…): show its beginning rather than nothing.
        parts.push(line.slice(0, READ_LIMITS.maxChars));
        end += 1;
        cutLine = true;
      }
      break;
    }
    parts.push(line);
    chars += line.length + 1;
    end += 1;
  }
  const output: ReadOutput = {
    path,
    start_line: start,
    end_line: end,
    total_lines: total,
    content: parts.join('\n'),
  };
  const notes: string[] = [];
  if (cutLine) notes.push(`Line ${end} is longer than ${READ_LIMITS.maxChars} characters and was cut.`);
  if (end < wantedEnd) {
    notes.push(`Showing lines ${start}-${end} of ${total}; call read with start_line ${end + 1} for more.`);
  }
  if (notes.length > 0) output.note = notes.join(' ');
  return output;
}
